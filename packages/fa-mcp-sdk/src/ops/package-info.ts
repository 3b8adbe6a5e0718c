/** Reads the consumer's package.json (name, version, description) from a folder or its parents. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface PackageInfo {
  name?: string;
  version?: string;
  description?: string;
  homepage?: string;
}

export function readPackageInfo(startDir: string): PackageInfo {
  let dir = startDir;
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as PackageInfo;
      } catch {
        return {};
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return {};
}
