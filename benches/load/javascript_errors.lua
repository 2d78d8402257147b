-- POST /api/events/RecordJavascriptErrors: a JSON array of one error record (spec 000
-- §3), with the crumb cookie echoed in X-CSRF-Token (BENCH_CRUMB). The server keys its
-- 20-per-page cap on data.pageLoadId, so every request names a fresh page load.
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

wrk.method = "POST"
local crumb = os.getenv("BENCH_CRUMB") or ""
local agent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"
local stack = "TypeError: Cannot read properties of undefined (reading 'price')\\n" ..
  "    at renderCart (http://127.0.0.1/assets/loader.js:412:17)\\n" ..
  "    at HTMLDocument.<anonymous> (http://127.0.0.1/assets/loader.js:88:5)"

function request()
  local body = string.format(
    '[{"event":"javascript-error","data":{"websiteId":"51ee8ec89a317a31733c9281","templateId":null,' ..
    '"url":"http://127.0.0.1/cart","userAgent":"%s","app":"loader",' ..
    '"message":"Cannot read properties of undefined (reading \'price\')","stack":"%s",' ..
    '"file":"http://127.0.0.1/assets/loader.js","line":412,"column":17,"pageLoadId":"bench-%s"},' ..
    '"timestamp":%d,"count":1}]',
    agent, stack, next_id(), os.time() * 1000)
  local headers = {
    ["Content-Type"] = "application/json",
    ["User-Agent"] = agent,
    ["Cookie"] = "crumb=" .. crumb,
    ["X-CSRF-Token"] = crumb,
  }
  return wrk.format(nil, "/api/events/RecordJavascriptErrors", headers, body)
end
