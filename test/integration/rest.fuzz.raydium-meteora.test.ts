// The REST fuzz of /api/v1/venue-b and /api/v1/venue-c (test/helpers/rest-fuzz.ts: the generators, the properties and the seeds).
import { describeRestFuzz } from "../helpers/rest-fuzz";

describeRestFuzz(["/api/v1/venue-b", "/api/v1/venue-c"]);
