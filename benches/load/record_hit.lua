-- POST /api/census/RecordHit as the loader sends it (spec 000 §7): form-encoded event,
-- data (JSON) and ss_cvr, with consent given (the demo site has a restrictive cookie
-- policy). Visitors come from a pool of 5,000 per thread, each a continuing visit: its
-- browser brings back the cookies the first page view set (ss_cvr, ss_cvt, SS_SESSION_ID,
-- SS_ANALYTICS_ID). record_hit_new.lua is the first page view of new visitors.
dofile(os.getenv("BENCH_DIR") .. "/common.lua")

wrk.method = "POST"
local pages = { { "/about", "About" }, { "/contact", "Contact" }, { "/calendar", "Calendar" }, { "/", "Home" } }
local agent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"
local first_visit = 1700000000000
local n = 0

function request()
  n = n + 1
  local page = pages[n % #pages + 1]
  local now = os.time() * 1000
  local visitor = string.format("bench-%d-%d", tid or 0, n % 5000)
  local cvr = string.format("%s|%d|%d|%d|%d", visitor, first_visit, first_visit, now - 60000, 3)
  local data = string.format(
    '{"userAgent":"%s","clientDate":%d,"viewportInnerWidth":1280,"viewportInnerHeight":720,' ..
    '"screenWidth":1920,"screenHeight":1080,"websiteId":"51ee8ec89a317a31733c9281","templateId":null,' ..
    '"website_locale":"en-US","url":"%s","title":"%s","collectionId":null,"recordType":null,' ..
    '"queryString":"","referrer":"https://www.example.com/","localStorageSupported":true}',
    agent, now, page[1], page[2])
  local body = "event=view&data=" .. urlencode(data) .. "&ss_cvr=" .. urlencode(cvr)
  local headers = {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["User-Agent"] = agent,
    ["Cookie"] = "ss_cookieAllowed=true; ss_cvr=" .. urlencode(cvr) .. "; ss_cvt=" .. tostring(now - 5000) ..
      "; SS_SESSION_ID=" .. visitor .. "-s; SS_ANALYTICS_ID=" .. visitor .. "-a",
  }
  return wrk.format(nil, "/api/census/RecordHit", headers, body)
end
