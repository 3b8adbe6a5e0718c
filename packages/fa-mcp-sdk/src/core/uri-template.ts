/**
 * Matches concrete URIs against RFC 6570 level-1 templates (`{var}` segments),
 * the form MCP resource templates use. A variable matches one path segment
 * unless written `{+var}`, which may span slashes.
 */
export class UriTemplateMatcher {
  readonly variables: string[] = [];
  private readonly regex: RegExp;

  constructor(readonly template: string) {
    let pattern = '';
    let last = 0;
    const re = /\{(\+?)([A-Za-z0-9_]+)\}/g;
    for (let m = re.exec(template); m; m = re.exec(template)) {
      pattern += escapeRegex(template.slice(last, m.index));
      pattern += m[1] === '+' ? '(.+)' : '([^/?#]+)';
      this.variables.push(m[2] as string);
      last = m.index + m[0].length;
    }
    pattern += escapeRegex(template.slice(last));
    this.regex = new RegExp(`^${pattern}$`);
  }

  match(uri: string): Record<string, string> | undefined {
    const m = this.regex.exec(uri);
    if (!m) return undefined;
    const out: Record<string, string> = {};
    this.variables.forEach((name, i) => {
      out[name] = safeDecode(m[i + 1] as string);
    });
    return out;
  }
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
