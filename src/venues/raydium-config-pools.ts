import type { Address } from "@solana/kit";
import { addressBytes, findPda, memoizeByIndex, sortedMintBytes, u16Be } from "./pda";

/**
 * Raydium CPMM and CLMM share their seed scheme: config = PDA(["amm_config", index u16 BIG-endian]) and
 * pool = PDA(["pool", config, mint0, mint1]) with mint0 < mint1 by bytes.
 */
export function raydiumConfigPools(programAddress: Address) {
  return {
    findConfigAddress: memoizeByIndex((index) => findPda(programAddress, ["amm_config", u16Be(index)])),
    findPoolAddress(config: Address, mintA: Address, mintB: Address): Promise<Address> {
      const [low, high] = sortedMintBytes(mintA, mintB);
      return findPda(programAddress, ["pool", addressBytes(config), low, high]);
    },
  };
}
