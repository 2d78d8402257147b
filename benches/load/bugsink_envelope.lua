-- POST /api/<project>/envelope/ to Bugsink: the error of javascript_errors.lua as a Sentry
-- SDK sends it (an envelope of one event: envelope header, item header, event), with the
-- project's key in X-Sentry-Auth (BENCH_SENTRY_KEY, BENCH_SENTRY_PROJECT). Every request
-- carries a fresh event_id and the current timestamp. BENCH_FINGERPRINTS (default 1: the
-- same error every time) spreads the requests over that many distinct errors, varied as in
-- javascript_errors.lua (what is read, the function, the line).
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

wrk.method = "POST"
local key = os.getenv("BENCH_SENTRY_KEY") or ""
local project = os.getenv("BENCH_SENTRY_PROJECT") or "1"
local agent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"
local path = "/api/" .. project .. "/envelope/"
local n = 0
local fingerprints = math.max(1, tonumber(os.getenv("BENCH_FINGERPRINTS") or "") or 1)

function request()
  local k = n % fingerprints
  n = n + 1
  local field = k == 0 and "price" or string.format("price%d", k)
  local fn = k == 0 and "renderCart" or string.format("renderCart%d", k)
  local event_id = string.format("%016x%016x", (tid or 0) * 1000003 + os.time(), n)
  local event = string.format(
    '{"event_id":"%s","timestamp":%d,"platform":"javascript","level":"error","logger":"javascript",' ..
    '"exception":{"values":[{"type":"TypeError","value":"Cannot read properties of undefined (reading \'%s\')",' ..
    '"stacktrace":{"frames":[' ..
    '{"filename":"http://127.0.0.1/assets/loader.js","function":"HTMLDocument.<anonymous>","lineno":88,"colno":5,"in_app":true},' ..
    '{"filename":"http://127.0.0.1/assets/loader.js","function":"%s","lineno":%d,"colno":17,"in_app":true}]}}]},' ..
    '"request":{"url":"http://127.0.0.1/cart","headers":{"User-Agent":"%s"}},"tags":{"app":"loader"}}',
    event_id, os.time(), field, fn, 412 + k, agent)
  local body = string.format('{"event_id":"%s"}\n{"type":"event"}\n%s', event_id, event)
  local headers = {
    ["Content-Type"] = "application/x-sentry-envelope",
    ["User-Agent"] = agent,
    ["X-Sentry-Auth"] = "Sentry sentry_key=" .. key .. ", sentry_version=7, sentry_client=veranda-bench/1.0",
  }
  return wrk.format(nil, path, headers, body)
end
