// Runs inside workerd before each test file: storage is isolated per file, so each gets the schema.
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
