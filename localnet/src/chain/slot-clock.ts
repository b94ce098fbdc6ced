/**
 * Drives slots in real time: one slot every `slotMs`, catching up after a stalled event loop (a bounded number of slots
 * per tick so requests still get served), and giving up on backlog older than ten slots rather than bursting.
 */
const MAX_SLOTS_PER_TICK = 50;

export function startSlotClock(slotMs: number, produceSlot: () => void): () => void {
  let nextAt = Date.now() + slotMs;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = Date.now();
    for (let n = 0; now >= nextAt && n < MAX_SLOTS_PER_TICK; n++) {
      produceSlot();
      nextAt += slotMs;
    }
    if (now - nextAt > 10 * slotMs) nextAt = now + slotMs;
    timer = setTimeout(tick, Math.max(0, nextAt - Date.now()));
  };
  timer = setTimeout(tick, slotMs);
  return () => clearTimeout(timer);
}
