/**
 * The meter's count of an account's /ws connections against rooms that lost sockets without telling it (a restart
 * drops sockets with no close event): at the plan's limit the meter asks the rooms, so a stale count never locks an
 * account out; connections still held, or too young to judge, stay counted.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { limits } from "../../src/limits";

describe("AccountMeter connections", () => {
  it("at the limit, connections no room holds are forgotten; recent ones are kept", async () => {
    // Given a meter counting 2 connections of an account: one old that no room holds, one just admitted
    const stub = env.ACCOUNT_METER.get(env.ACCOUNT_METER.idFromName(`acct_ws${crypto.randomUUID().slice(0, 8)}`));
    await runInDurableObject(stub, (_instance, state) => {
      state.storage.sql.exec("INSERT INTO connections (id, key_id, at) VALUES ('lost-connection-1', 'key_a', ?)", Date.now() - limits.meter.connectionSettleMs - 1000);
      state.storage.sql.exec("INSERT INTO connections (id, key_id, at) VALUES ('fresh-connection-2', 'key_a', ?)", Date.now());
    });
    // When a third connection asks under a limit of 2
    const third = await stub.openConnection("new-connection-3", "key_a", 2);
    // Then the lost one was dropped (its room holds no such socket), the fresh one kept, and the third admitted
    expect(third).toEqual({ ok: true, open: 2 });
    const ids = await runInDurableObject(stub, (_instance, state) => state.storage.sql.exec<{ id: string }>("SELECT id FROM connections ORDER BY id").toArray().map((r) => r.id));
    expect(ids).toEqual(["fresh-connection-2", "new-connection-3"]);
    // and a fourth is refused: both counted connections are too young to be judged lost
    expect(await stub.openConnection("new-connection-4", "key_a", 2)).toEqual({ ok: false, open: 2 });
    // When one closes / Then there is room again
    await stub.closeConnection("fresh-connection-2");
    expect(await stub.openConnection("new-connection-4", "key_a", 2)).toEqual({ ok: true, open: 2 });
  });
});
