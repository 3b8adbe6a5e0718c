/**
 * A deterministic local embedding, so the example runs with no model and no
 * network: the feature-hashing trick over words and character trigrams, signed
 * buckets, L2-normalised. Texts that share words and word pieces land close
 * under the cosine distance. Swap in a real model's vectors through the tools'
 * `embedding` argument (same dimension).
 */
export const DIMENSIONS = 64;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function features(text: string): string[] {
  const words = text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const word of words) {
    out.push(`w:${word}`);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) out.push(`t:${padded.slice(i, i + 3)}`);
  }
  return out;
}

export function embed(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const feature of features(text)) {
    const h = fnv1a(feature);
    const weight = feature.startsWith('w:') ? 2 : 1;
    vector[h % DIMENSIONS]! += h & 0x80000000 ? -weight : weight;
  }
  const norm = Math.hypot(...vector);
  // An empty text has no direction; a tiny constant keeps the cosine distance defined.
  return norm === 0 ? vector.map(() => 1 / Math.sqrt(DIMENSIONS)) : vector.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}
