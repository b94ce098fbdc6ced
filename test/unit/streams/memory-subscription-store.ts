import type { RingEntry } from "../../../src/streams/stream-resume-ring";
import type { SubscriptionRow, SubscriptionStore } from "../../../src/streams/stream-room-state";

/** The room's SubscriptionStore over two maps (what stream-room.ts keeps in SQLite), for tests of StreamRoomState. */
export function memorySubscriptionStore(rows: Map<string, SubscriptionRow>, kept: Map<string, Map<number, RingEntry>>): SubscriptionStore {
  return {
    all: () => [...rows.values()].map((r) => ({ ...r })),
    put: (row) => void rows.set(row.id, { ...row }),
    remove: (id) => {
      rows.delete(id);
      kept.delete(id);
    },
    keepEvents: (id, entries) => {
      const m = kept.get(id) ?? new Map<number, RingEntry>();
      for (const e of entries) m.set(e.seq, { ...e });
      kept.set(id, m);
    },
    keptEvents: (id) => [...(kept.get(id)?.values() ?? [])].sort((a, b) => a.seq - b.seq),
    dropEvents: (id) => void kept.delete(id),
    expireEvents: (before) => {
      for (const m of kept.values()) for (const [seq, e] of m) if (e.at < before) m.delete(seq);
    },
  };
}
