// Counting newline bytes and UTF-8 continuation bytes in a run of bytes, the inner loop of
// registering a file: with WebAssembly SIMD (16 bytes per step, several GB/s) when the engine
// has it, else in plain JavaScript (Buffer#indexOf for newlines, four bytes at a time for the
// rest). Both give the same counts; the tests compare them.
//
// The module is assembled below from named instructions. Its one function, in text format:
//
//   (func (export "count") (param $at i32) (param $length i32) (result i32)   ;; $length % 16 == 0
//     $end = $at + $length
//     loop while $at < $end:                      ;; blocks of at most 255 vectors, so that
//       $stop = min($at + 255 * 16, $end)         ;; no 8-bit lane counter can overflow
//       $newlines8 = $continuations8 = 0
//       loop:
//         $v = v128.load($at)
//         $newlines8 -= i8x16.eq($v, splat(0x0a))                          ;; a match is -1
//         $continuations8 -= i8x16.eq(v128.and($v, splat(0xc0)), splat(0x80))
//         $at += 16; continue while $at < $stop
//       $newlines32 += i32x4.extadd_pairwise_u(i16x8.extadd_pairwise_u($newlines8))
//       $continuations32 += (the same of $continuations8)
//     global "continuations" = sum of the lanes of $continuations32
//     return sum of the lanes of $newlines32)

export interface ByteCounts {
  readonly newlines: number;
  readonly continuations: number;
}

function unsignedLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return out;
}

function signedLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0)) return [...out, low];
    out.push(low | 0x80);
  }
}

const simd = (opcode: number): number[] => [0xfd, ...unsignedLeb(opcode)];
const op = {
  localGet: (i: number) => [0x20, i],
  localSet: (i: number) => [0x21, i],
  localTee: (i: number) => [0x22, i],
  globalSet: (i: number) => [0x24, i],
  i32Const: (n: number) => [0x41, ...signedLeb(n)],
  i32Add: [0x6a],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  select: [0x1b],
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  end: [0x0b],
  v128Load: [...simd(0x00), 0, 0],
  v128Zero: [...simd(0x0c), ...new Array<number>(16).fill(0)],
  i8x16Splat: simd(0x0f),
  i8x16Eq: simd(0x23),
  v128And: simd(0x4e),
  i8x16Sub: simd(0x71),
  i16x8ExtaddPairwiseU: simd(0x7d),
  i32x4ExtaddPairwiseU: simd(0x7f),
  i32x4Add: simd(0xae),
  i32x4Lane: (lane: number) => [...simd(0x1b), lane],
};

// Locals: the two parameters, then $end $stop (i32), $newlines8 $continuations8 $newlines32
// $continuations32 $v (v128).
const [AT, LENGTH, END, STOP, NEWLINES8, CONTINUATIONS8, NEWLINES32, CONTINUATIONS32, V] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

const laneSum = (v: number): number[] => [
  ...[0, 1, 2, 3].flatMap((lane) => [...op.localGet(v), ...op.i32x4Lane(lane)]),
  ...op.i32Add,
  ...op.i32Add,
  ...op.i32Add,
];
const widenInto = (wide: number, narrow: number): number[] => [
  ...op.localGet(wide),
  ...op.localGet(narrow),
  ...op.i16x8ExtaddPairwiseU,
  ...op.i32x4ExtaddPairwiseU,
  ...op.i32x4Add,
  ...op.localSet(wide),
];
const countInto = (counter: number, mask: number[]): number[] => [
  ...op.localGet(counter),
  ...mask,
  ...op.i8x16Eq,
  ...op.i8x16Sub,
  ...op.localSet(counter),
];

const BODY = [
  ...[...op.localGet(AT), ...op.localGet(LENGTH), ...op.i32Add, ...op.localSet(END)],
  ...op.block,
  ...op.loop,
  ...[...op.localGet(AT), ...op.localGet(END), ...op.i32GeU, ...op.brIf(1)],
  ...[...op.localGet(AT), ...op.i32Const(255 * 16), ...op.i32Add, ...op.localTee(STOP)],
  ...[...op.localGet(END), ...op.localGet(STOP), ...op.localGet(END), ...op.i32LtU, ...op.select, ...op.localSet(STOP)],
  ...[...op.v128Zero, ...op.localSet(NEWLINES8), ...op.v128Zero, ...op.localSet(CONTINUATIONS8)],
  ...op.loop,
  ...[...op.localGet(AT), ...op.v128Load, ...op.localSet(V)],
  ...countInto(NEWLINES8, [...op.localGet(V), ...op.i32Const(0x0a), ...op.i8x16Splat]),
  ...countInto(CONTINUATIONS8, [
    ...[...op.localGet(V), ...op.i32Const(0xc0), ...op.i8x16Splat, ...op.v128And],
    ...[...op.i32Const(0x80), ...op.i8x16Splat],
  ]),
  ...[...op.localGet(AT), ...op.i32Const(16), ...op.i32Add, ...op.localTee(AT), ...op.localGet(STOP), ...op.i32LtU],
  ...op.brIf(0),
  ...op.end,
  ...widenInto(NEWLINES32, NEWLINES8),
  ...widenInto(CONTINUATIONS32, CONTINUATIONS8),
  ...op.br(0),
  ...op.end,
  ...op.end,
  ...laneSum(CONTINUATIONS32),
  ...op.globalSet(0),
  ...laneSum(NEWLINES32),
  ...op.end,
];

/** Bytes counted per call: the module's memory holds one such piece. */
const PIECE = 1 << 20;
const PAGES = PIECE / 65536;

function moduleBytes(): Uint8Array {
  const locals = [2, 2, 0x7f, 5, 0x7b];
  const code = [...unsignedLeb(locals.length + BODY.length), ...locals, ...BODY];
  const section = (id: number, content: number[]): number[] => [id, ...unsignedLeb(content.length), ...content];
  const name = (text: string): number[] => [text.length, ...Buffer.from(text, "latin1")];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, ...unsignedLeb(PAGES)]),
    ...section(6, [1, 0x7f, 1, ...op.i32Const(0), ...op.end]),
    ...section(7, [3, ...name("memory"), 2, 0, ...name("count"), 0, 0, ...name("continuations"), 3, 0]),
    ...section(10, [1, ...code]),
  ]);
}

interface SimdCounter {
  readonly memory: Uint8Array;
  readonly count: (at: number, length: number) => number;
  readonly continuations: { readonly value: unknown };
}

/** The little of the WebAssembly API used here (the project's TypeScript libraries omit it). */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: Readonly<Record<string, unknown>> };
}

function hasValue(value: unknown): value is { readonly value: unknown } {
  return typeof value === "object" && value !== null && "value" in value;
}

function hasBuffer(value: unknown): value is { readonly buffer: ArrayBuffer } {
  return typeof value === "object" && value !== null && "buffer" in value && value.buffer instanceof ArrayBuffer;
}

function isCount(value: unknown): value is (at: number, length: number) => number {
  return typeof value === "function";
}

/** The compiled module, or undefined where the engine has no WebAssembly SIMD. */
function compile(): SimdCounter | undefined {
  const api = (globalThis as { readonly WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (api === undefined) return undefined;
  try {
    const { exports } = new api.Instance(new api.Module(moduleBytes()), {});
    const { memory, count, continuations } = exports;
    if (!hasBuffer(memory) || !isCount(count) || !hasValue(continuations)) return undefined;
    // The memory never grows, so this view stays valid.
    return { memory: new Uint8Array(memory.buffer), count, continuations };
  } catch {
    return undefined;
  }
}

let counter: SimdCounter | undefined | null = null;

function simdCounter(): SimdCounter | undefined {
  if (counter === null) counter = compile();
  return counter;
}

/** Whether counting runs on WebAssembly SIMD here. */
export function usesSimd(): boolean {
  return simdCounter() !== undefined;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Newline bytes in bytes[start, end), by Buffer#indexOf (fast while lines are not very short). */
export function countNewlines(bytes: Buffer, start: number, end: number): number {
  if (end <= start) return 0;
  const view = bytes.subarray(start, end);
  let count = 0;
  for (let at = view.indexOf(0x0a); at >= 0; at = view.indexOf(0x0a, at + 1)) count++;
  return count;
}

/** Continuation bytes in bytes[start, end), four at a time. */
function countContinuations(bytes: Buffer, start: number, end: number): number {
  let count = 0;
  let i = start;
  for (; i < end && (bytes.byteOffset + i) % 4 !== 0; i++) if (isContinuation(bytes[i] as number)) count++;
  const words = Math.floor((end - i) / 4);
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let w = 0; w < words; w++) {
      const x = view[w] as number;
      count += Math.imul((x & ~(x << 1) & 0x80808080) >>> 7, 0x01010101) >>> 24;
    }
    i += words * 4;
  }
  for (; i < end; i++) if (isContinuation(bytes[i] as number)) count++;
  return count;
}

/** The counts in plain JavaScript. */
export function countBytesPortably(bytes: Buffer, start: number, end: number): ByteCounts {
  return { newlines: countNewlines(bytes, start, end), continuations: countContinuations(bytes, start, end) };
}

/** Newline and continuation bytes in bytes[start, end). */
export function countBytes(bytes: Buffer, start: number, end: number, portable = false): ByteCounts {
  const simdCount = portable ? undefined : simdCounter();
  if (simdCount === undefined) return countBytesPortably(bytes, start, end);
  let newlines = 0;
  let continuations = 0;
  let at = start;
  // Whole 16-byte vectors go through the module, a piece at a time; the last few bytes do not.
  while (end - at >= 16) {
    const length = Math.min(PIECE, (end - at) & ~15);
    simdCount.memory.set(bytes.subarray(at, at + length));
    newlines += simdCount.count(0, length);
    continuations += simdCount.continuations.value as number;
    at += length;
  }
  const rest = countBytesPortably(bytes, at, end);
  return { newlines: newlines + rest.newlines, continuations: continuations + rest.continuations };
}
