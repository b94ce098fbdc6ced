// The REST fuzz of /api/v1/price and /api/v1/venue-a (test/helpers/rest-fuzz.ts: the generators, the properties and the seeds).
import { describeRestFuzz } from "../helpers/rest-fuzz";

describeRestFuzz(["/api/v1/price", "/api/v1/venue-a"]);
