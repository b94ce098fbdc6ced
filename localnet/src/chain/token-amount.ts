/**
 * Agave's UiTokenAmount (`token_amount_to_ui_amount_v3` without interest-bearing / scaled-UI adjustments):
 * `uiAmount` is amount / 10^decimals in f64 (null when 10^decimals overflows a u64), `uiAmountString` the exact decimal
 * with trailing zeros trimmed.
 */
export interface UiTokenAmountJson {
  uiAmount: number | null;
  decimals: number;
  amount: string;
  uiAmountString: string;
}

export function realNumberStringTrimmed(amount: bigint, decimals: number): string {
  const digits = amount.toString();
  if (decimals === 0) return digits;
  const padded = digits.padStart(decimals + 1, "0");
  const text = `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
  return text.replace(/0+$/, "").replace(/\.$/, "");
}

export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmountJson {
  return {
    uiAmount: decimals <= 19 ? Number(amount) / 10 ** decimals : null,
    decimals,
    amount: amount.toString(),
    uiAmountString: realNumberStringTrimmed(amount, decimals),
  };
}
