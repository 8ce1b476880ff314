// Exact worst-case counts. Retries multiply, so a plan of a few lines can have a worst case
// far beyond 2^53, which the reference computes exactly. A count is a number while it is a
// safe integer (every everyday plan) and a bigint beyond, so figures stay exact and the common
// case stays plain numbers.

export type Count = number | bigint;

/** The count as a number when that is exact, else as a bigint. */
function normal(value: bigint): Count {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value;
}

export function addCounts(a: Count, b: Count): Count {
  if (typeof a === "number" && typeof b === "number") {
    const sum = a + b;
    if (Number.isSafeInteger(sum)) return sum;
  }
  return normal(BigInt(a) + BigInt(b));
}

export function multiplyCounts(a: Count, b: Count): Count {
  if (typeof a === "number" && typeof b === "number") {
    const product = a * b;
    if (Number.isSafeInteger(product)) return product;
  }
  return normal(BigInt(a) * BigInt(b));
}

/** The nearest number, for JSON values that hosts read with JSON.parse (their messages carry the exact figure). */
export function countNumber(count: Count): number {
  return Number(count);
}
