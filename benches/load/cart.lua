-- Cart changes across many carts (benches/load/cart.sh). Each request picks one of
-- BENCH_CARTS carts (well-formed ids the server has never seen: the first change makes
-- the cart) and either adds a unit of the house blend or sets its quantity. Assumes
-- wrk's 2 threads (-t2), as cart.sh runs it.
--
-- Environment: BENCH_CRUMB (a crumb from GET /), BENCH_CARTS (default 10000).

dofile(os.getenv("BENCH_DIR") .. "/common.lua")

local crumb = os.getenv("BENCH_CRUMB") or ""
local carts = tonumber(os.getenv("BENCH_CARTS") or "10000")
local added = {}

-- A 32-character cart id for cart number i (the shape of the server's own ids).
local function cart_id(i)
  return string.format("benchcart%023d", i)
end

-- Each wrk thread seeds its own generator (the threads would otherwise draw the same
-- sequence) and works on its own half of the carts.
function init(args)
  math.randomseed((tid or 1) * 7919 + os.time())
end

-- As a shopper would: the first change of a cart adds the house blend; later ones add
-- another unit or set its quantity (1-5), half and half. BENCH_CART_MIX=blind restores
-- the older mix, where half the requests set a quantity whether or not the cart has the
-- entry (those answer 404 and are not counted as operations).
local blind = os.getenv("BENCH_CART_MIX") == "blind"

function request()
  local threads = 2
  local i = math.random(1, math.max(1, math.floor(carts / threads))) * threads - ((tid or 1) - 1)
  local cart = cart_id(i)
  local headers = {
    ["Content-Type"] = "application/json",
    ["X-CSRF-Token"] = crumb,
    ["Cookie"] = "crumb=" .. crumb .. "; cart=" .. cart,
  }
  local add
  if blind then
    add = math.random(0, 1) == 1
  else
    add = not added[i] or math.random(0, 1) == 1
  end
  if add then
    added[i] = true
    return wrk.format("POST", "/api/commerce/cart/entries", headers, '{"sku":"VER-HB-12OZ","quantity":1}')
  end
  local body = string.format('{"quantity":%d}', math.random(1, 5))
  return wrk.format("PUT", "/api/commerce/cart/entries/VER-HB-12OZ", headers, body)
end
