/**
 * A transaction's instructions in execution order (each top-level instruction, then the CPIs it made), with the extent
 * of each one's CPI subtree read from `stackHeight`: an instruction's subtree is the run of instructions after it that
 * sit deeper than it. In transactions recorded before `stackHeight` existed, the nesting under a top-level instruction
 * is unknown: each of its inner instructions is given the rest of that top-level instruction's CPIs as its subtree.
 */
import type { JsonInstruction, JsonTransaction } from "./json-transaction";

export interface FlatInstruction {
  readonly instruction: JsonInstruction;
  /** 1 = top level */
  readonly depth: number;
  /** index (in the flat list) just past the last instruction of its CPI subtree */
  end: number;
}

/** Instructions in execution order with their subtree extents; entries that are not objects are left out. */
export function flattenInstructions(tx: JsonTransaction): FlatInstruction[] {
  const top = tx.transaction.message.instructions;
  const inner = new Map<number, JsonInstruction[]>();
  for (const group of tx.meta?.innerInstructions ?? []) {
    if (group && Number.isInteger(group.index) && Array.isArray(group.instructions)) inner.set(group.index, group.instructions);
  }
  const flat: FlatInstruction[] = [];
  const open: FlatInstruction[] = [];
  const push = (instruction: JsonInstruction, depth: number) => {
    while (open.length > 0 && open[open.length - 1]!.depth >= depth) open.pop()!.end = flat.length;
    const entry: FlatInstruction = { instruction, depth, end: flat.length + 1 };
    flat.push(entry);
    open.push(entry);
  };
  if (!Array.isArray(top)) return flat;
  for (let i = 0; i < top.length; i++) {
    const instruction = top[i];
    if (typeof instruction !== "object" || instruction === null) continue;
    push(instruction, 1);
    const first = flat.length;
    let nestingKnown = true;
    for (const cpi of inner.get(i) ?? []) {
      if (typeof cpi !== "object" || cpi === null) continue;
      const height = cpi.stackHeight;
      const known = typeof height === "number" && Number.isInteger(height) && height >= 2;
      nestingKnown &&= known;
      push(cpi, known ? (height as number) : 2);
    }
    if (!nestingKnown) {
      while (open.length > 1) open.pop();
      for (let j = first; j < flat.length; j++) flat[j]!.end = flat.length;
    }
  }
  while (open.length > 0) open.pop()!.end = flat.length;
  return flat;
}
