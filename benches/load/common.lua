-- Shared by the load scripts (loaded with dofile): per-thread ids, URL encoding,
-- optional pacing, and one machine-readable RESULT line at the end of a run.
--
-- Environment: BENCH_PACE_RPS (optional) with BENCH_CONNECTIONS paces each connection
-- with wrk's delay() so the whole run aims at about BENCH_PACE_RPS requests per second.

local counter = 0
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

-- A value unique to this request within the run: "<thread>-<n>".
function next_id()
  counter = counter + 1
  return tostring(tid or 0) .. "-" .. tostring(counter)
end

-- application/x-www-form-urlencoded encoding of one value.
function urlencode(text)
  return (string.gsub(text, "[^%w%-%._~]", function(c)
    return string.format("%%%02X", string.byte(c))
  end))
end

local pace = tonumber(os.getenv("BENCH_PACE_RPS") or "")
local connections = tonumber(os.getenv("BENCH_CONNECTIONS") or "")
if pace and pace > 0 and connections and connections > 0 then
  -- Each connection waits connections/pace seconds before each request; delay() takes
  -- whole milliseconds, so the fraction is spread by rounding up at random.
  local gap = connections * 1000 / pace
  local base = math.floor(gap)
  function delay()
    if math.random() < gap - base then return base + 1 end
    return base
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d non2xx=%d socket_errors=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d\n",
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
