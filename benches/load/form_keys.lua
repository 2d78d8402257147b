-- POST /api/form/FormSubmissionKey as the form island sends it (crumb cookie and header),
-- run before the measured phase: every key answered is appended to
-- $BENCH_KEYS_DIR/keys-<thread>.txt, one per line, for form_submissions.lua to spend.
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

local crumb = os.getenv("BENCH_CRUMB")
local out = nil

wrk.method = "POST"
wrk.path = "/api/form/FormSubmissionKey"
wrk.headers["Cookie"] = "crumb=" .. crumb
wrk.headers["X-CSRF-Token"] = crumb
wrk.headers["Content-Type"] = "application/json"
wrk.body = "null"

function response(status, headers, body)
  if status ~= 200 then return end
  local key = string.match(body, '"key"%s*:%s*"([^"]+)"')
  if not key then return end
  if not out then
    out = assert(io.open(os.getenv("BENCH_KEYS_DIR") .. "/keys-" .. tostring(tid or 0) .. ".txt", "a"))
  end
  out:write(key, "\n")
  out:flush()
end
