import { limits } from "../limits";

/**
 * One D1 statement per `limits.tradeIngest.rowsPerStatement` rows, each batch of rows bound as one JSON parameter (the
 * SQL reads it with `json_each(?1)`): D1 binds at most 100 parameters per statement and a bound string at most 2 MB; a
 * page of mainnet blocks holds ~3,000 trades of ~330 B each, and 1,000 rows keep every parameter near 350 KB.
 */
export function jsonRowsStatements(db: D1Database, sql: string, rows: readonly unknown[][]): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += limits.tradeIngest.rowsPerStatement) {
    out.push(db.prepare(sql).bind(JSON.stringify(rows.slice(i, i + limits.tradeIngest.rowsPerStatement))));
  }
  return out;
}
