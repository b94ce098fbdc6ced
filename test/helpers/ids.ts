/** Names no other test uses, so tests sharing a store (D1, KV, a meter per account) never see each other's rows. */

/** A fresh account id, in the shape the account tables hold. */
export const newAccount = () => `acct_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
