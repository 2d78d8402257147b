-- POST /api/events/RecordJavascriptErrors: a JSON array of one error record (spec 000
-- §3), with the crumb cookie echoed in X-CSRF-Token (BENCH_CRUMB). The server keys its
-- 20-per-page cap on data.pageLoadId, so every request names a fresh page load.
-- BENCH_FINGERPRINTS (default 1: the same error every time) spreads the requests over that
-- many distinct errors (message, function and line vary), as bugsink_envelope.lua does.
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

wrk.method = "POST"
local crumb = os.getenv("BENCH_CRUMB") or ""
local agent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"
local fingerprints = math.max(1, tonumber(os.getenv("BENCH_FINGERPRINTS") or "") or 1)
local sent = 0

function request()
  -- Error k of the workload: k = 0 is the identical error; others differ in what is read,
  -- the function and the line, so each is a fingerprint of its own.
  local k = sent % fingerprints
  sent = sent + 1
  local field = k == 0 and "price" or string.format("price%d", k)
  local fn = k == 0 and "renderCart" or string.format("renderCart%d", k)
  local line = 412 + k
  local stack = string.format("TypeError: Cannot read properties of undefined (reading '%s')\\n" ..
    "    at %s (http://127.0.0.1/assets/loader.js:%d:17)\\n" ..
    "    at HTMLDocument.<anonymous> (http://127.0.0.1/assets/loader.js:88:5)", field, fn, line)
  local body = string.format(
    '[{"event":"javascript-error","data":{"websiteId":"51ee8ec89a317a31733c9281","templateId":null,' ..
    '"url":"http://127.0.0.1/cart","userAgent":"%s","app":"loader",' ..
    '"message":"Cannot read properties of undefined (reading \'%s\')","stack":"%s",' ..
    '"file":"http://127.0.0.1/assets/loader.js","line":%d,"column":17,"pageLoadId":"bench-%s"},' ..
    '"timestamp":%d,"count":1}]',
    agent, field, stack, line, next_id(), os.time() * 1000)
  local headers = {
    ["Content-Type"] = "application/json",
    ["User-Agent"] = agent,
    ["Cookie"] = "crumb=" .. crumb,
    ["X-CSRF-Token"] = crumb,
  }
  return wrk.format(nil, "/api/events/RecordJavascriptErrors", headers, body)
end
