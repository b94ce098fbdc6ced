// The REST fuzz of /api/v1/venue-d and /api/v1/overview (test/helpers/rest-fuzz.ts: the generators, the properties and the seeds).
import { describeRestFuzz } from "../helpers/rest-fuzz";

describeRestFuzz(["/api/v1/venue-d", "/api/v1/overview"]);
