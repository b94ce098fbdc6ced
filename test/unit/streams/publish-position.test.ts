import { describe, expect, it } from "vitest";
import { isNewPosition, newEpoch, publishPositionSchema } from "../../../src/streams/publish-position";

describe("publish positions (a room takes each once)", () => {
  const at = (slot: number, part: number, epoch = "e1") => ({ epoch, slot, part });

  it("takes the first position, later slots, and a block's prices after its events", () => {
    expect(isNewPosition(null, at(5, 0))).toBe(true);
    expect(isNewPosition(at(5, 0), at(5, 1))).toBe(true);
    expect(isNewPosition(at(5, 1), at(6, 0))).toBe(true);
    expect(isNewPosition(at(5, 0), at(9, 1))).toBe(true);
  });

  it("drops a position taken before or behind the last (a tail publishing again after a crash)", () => {
    expect(isNewPosition(at(5, 0), at(5, 0))).toBe(false);
    expect(isNewPosition(at(5, 1), at(5, 0))).toBe(false);
    expect(isNewPosition(at(5, 1), at(5, 1))).toBe(false);
    expect(isNewPosition(at(9, 0), at(4, 1))).toBe(false);
  });

  it("a new epoch starts a new order (a restarted cluster's slots begin lower)", () => {
    expect(isNewPosition(at(900, 1, "old"), at(3, 0, "new"))).toBe(true);
  });

  it("the processed output is ordered on its own: its positions are compared with its own", () => {
    const processed = (slot: number, part: number) => ({ ...at(slot, part), stream: "processed" as const });
    expect(isNewPosition(processed(5, 0), processed(5, 1))).toBe(true);
    expect(isNewPosition(processed(5, 1), processed(5, 1))).toBe(false);
    expect(isNewPosition(processed(7, 0), processed(6, 1))).toBe(false);
    expect(publishPositionSchema.safeParse(processed(1, 0)).success).toBe(true);
    expect(publishPositionSchema.safeParse({ ...at(1, 0), stream: "finalized" }).success).toBe(false);
  });

  it("validates positions and makes distinct epochs", () => {
    expect(publishPositionSchema.safeParse(at(1, 0)).success).toBe(true);
    expect(publishPositionSchema.safeParse(at(1, 2)).success).toBe(false);
    expect(publishPositionSchema.safeParse(at(-1, 0)).success).toBe(false);
    expect(publishPositionSchema.safeParse({ epoch: "", slot: 1, part: 0 }).success).toBe(false);
    expect(publishPositionSchema.safeParse(null).success).toBe(false);
    const epochs = new Set(Array.from({ length: 100 }, () => newEpoch()));
    expect(epochs.size).toBe(100);
    for (const e of epochs) expect(e).toMatch(/^[0-9a-f]{16}$/);
  });
});
