-- POST /api/census/RecordHit where every hit is a new visitor: a landing page going viral.
-- As record_hit.lua (the loader's form-encoded event and data, consent given), but with
-- no ss_cvr or ss_cvt anywhere, so the server mints a visitor id and starts a session
-- for each hit.
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

wrk.method = "POST"
local pages = { { "/", "Home" }, { "/about", "About" } }
local agent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"
local n = 0

function request()
  n = n + 1
  local page = pages[n % #pages + 1]
  local now = os.time() * 1000
  local data = string.format(
    '{"userAgent":"%s","clientDate":%d,"viewportInnerWidth":1280,"viewportInnerHeight":720,' ..
    '"screenWidth":1920,"screenHeight":1080,"websiteId":"51ee8ec89a317a31733c9281","templateId":null,' ..
    '"website_locale":"en-US","url":"%s","title":"%s","collectionId":null,"recordType":null,' ..
    '"queryString":"","referrer":"https://news.example.com/","localStorageSupported":true}',
    agent, now, page[1], page[2])
  local body = "event=view&data=" .. urlencode(data)
  local headers = {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["User-Agent"] = agent,
    ["Cookie"] = "ss_cookieAllowed=true",
  }
  return wrk.format(nil, "/api/census/RecordHit", headers, body)
end
