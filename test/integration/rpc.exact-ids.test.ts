import { beforeAll, describe, expect, it } from "vitest";
import { newApiKey } from "../helpers/keys";
import { chainRpcText } from "../helpers/localnet";
import { postRpc } from "../helpers/rpc";

/**
 * Ids as Agave reads them (jsonrpc-core's `Id`: Num(u64) | Str | Null): a u64 past 2^53 comes back with every digit,
 * single or in a batch; ids serde would not read as u64 (a fraction, an exponent, a sign, past u64) are -32600, id null.
 */
let key = "";
beforeAll(async () => {
  key = await newApiKey();
});

describe("JSON-RPC ids through /rpc", () => {
  it("echoes a u64 id past 2^53 exactly, single and batched, as the node does", async () => {
    for (const id of ["9007199254740993", "18446744073709551615"]) {
      const single = await postRpc(key, `{"jsonrpc":"2.0","id":${id},"method":"getGenesisHash"}`);
      expect(single.status).toBe(200);
      expect(single.text).toMatch(new RegExp(`^\\{"jsonrpc":"2\\.0","result":"[1-9A-HJ-NP-Za-km-z]+","id":${id}\\}$`));
      // the node answers the same id text
      expect(await chainRpcText(`{"jsonrpc":"2.0","id":${id},"method":"getGenesisHash"}`)).toContain(`"id":${id}}`);
      const batch = await postRpc(key, `[{"jsonrpc":"2.0","id":${id},"method":"getGenesisHash"},{"jsonrpc":"2.0","id":2,"method":"getGenesisHash"}]`);
      expect(batch.text).toContain(`"id":${id}}`);
      expect(batch.text).toContain(`"id":2}`);
    }
  });

  it("refuses ids that are not u64 digits with -32600 and id null", async () => {
    for (const id of ["1e3", "2.0", "-5", "18446744073709551616"]) {
      const res = await postRpc(key, `{"jsonrpc":"2.0","id":${id},"method":"getSlot"}`);
      expect(res.text).toBe(`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"},"id":null}`);
    }
  });
});
