-- POST /api/form/SaveFormSubmission as the newsletter block sends it (spec 000 §3 payload,
-- JSON body, crumb cookie and header) to the demo's "newsletter" form, which asks for no
-- captcha. Each request spends one key fetched beforehand by form_keys.lua (thread n of N
-- takes every Nth key of $BENCH_KEYS_DIR/keys-*.txt) and signs up a new address, so every
-- 200 is one more durable write. Once the keys run out, requests carry an empty key and
-- count as non-2xx (401).
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

local crumb = os.getenv("BENCH_CRUMB")
local threads_total = tonumber(os.getenv("BENCH_THREADS") or "1")
local keys = nil
local next_key = 1

wrk.method = "POST"
wrk.path = "/api/form/SaveFormSubmission"
wrk.headers["Cookie"] = "crumb=" .. crumb
wrk.headers["X-CSRF-Token"] = crumb
wrk.headers["Content-Type"] = "application/json"

-- This thread's share of the keys, read once.
local function load_keys()
  keys = {}
  local all = {}
  local list = io.popen("ls " .. os.getenv("BENCH_KEYS_DIR") .. "/keys-*.txt 2>/dev/null")
  for path in list:lines() do
    for line in io.lines(path) do all[#all + 1] = line end
  end
  list:close()
  local mine = (tid or 1) - 1
  for i, key in ipairs(all) do
    if (i - 1) % threads_total == mine then keys[#keys + 1] = key end
  end
end

function request()
  if not keys then load_keys() end
  local key = keys[next_key] or ""
  next_key = next_key + 1
  local email = "reader-" .. next_id() .. "@example.com"
  local form = '{\\"email\\":\\"' .. email .. '\\"}'
  local body = '{"key":"' .. key .. '","formId":"newsletter","collectionId":null,' ..
    '"objectName":"75c8afcd1c8273ac164e16ee","isOverlayForm":false,"submitButtonText":"Sign me up",' ..
    '"form":"' .. form .. '","pageTitle":"Contact","pageId":"d9c69c3fec4c048f374ed236",' ..
    '"contentSource":"c","pagePath":"/contact","pagePermissionTypeValue":1}'
  return wrk.format(nil, nil, nil, body)
end
