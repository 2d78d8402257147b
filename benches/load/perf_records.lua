-- POST /api/1/performance/records: the JSON array the loader flushes for one page load
-- (web-vitals records with rating, delta, id, navigationType, pagePath, websiteId), sent
-- as the text/plain beacon. Each request is a fresh page load.
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

wrk.method = "POST"
local vitals = { { "LCP", 1840.5 }, { "FCP", 912.3 }, { "TTFB", 143.0 }, { "CLS", 0.04 } }
local pages = { "/about", "/contact", "/calendar", "/" }
local n = 0

function request()
  n = n + 1
  local id = "bench-" .. next_id()
  local path = pages[n % #pages + 1]
  local records = {}
  for i, v in ipairs(vitals) do
    records[i] = string.format(
      '{"pageLoadId":"%s","name":"%s","value":%s,"rating":"good","delta":%s,"id":"v4-%s-%d",' ..
      '"navigationType":"navigate","pagePath":"%s","websiteId":"51ee8ec89a317a31733c9281"}',
      id, v[1], v[2], v[2], id, i, path)
  end
  local headers = { ["Content-Type"] = "text/plain;charset=UTF-8" }
  return wrk.format(nil, "/api/1/performance/records", headers, "[" .. table.concat(records, ",") .. "]")
end
