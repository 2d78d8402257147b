-- POST /api/1/performance/records with an empty array: the cheapest ingest request there
-- is. It passes everything every ingest request passes (the write gate, the request
-- metrics, the security headers, routing, the per-address request rate and byte budget,
-- a bounded body read, a JSON parse) and records nothing, so its ratio to the bare handler
-- is the ceiling the edge leaves to every ingest route.
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

wrk.method = "POST"
local headers = { ["Content-Type"] = "text/plain;charset=UTF-8" }

function request()
  return wrk.format(nil, "/api/1/performance/records", headers, "[]")
end
