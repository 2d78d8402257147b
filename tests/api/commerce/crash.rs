//! Crash harness for carts and orders: the real `veranda` binary is SIGKILLed at a
//! random moment while shoppers change their carts and check out; after each restart
//! every acknowledged cart change and every placed order must be there. Eight rounds
//! on one data directory.
//!
//! The binary is `$VERANDA_BIN`, else `veranda` in the test binary's target folder
//! (run `cargo build -p veranda-server` before `cargo test -p veranda-tests` alone).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use veranda_tests::demo_site_dir;
use veranda_tests::process::{crumb_of, random_below, ServerProcess};

const ROUNDS: usize = 8;
/// Every shopper comes from 127.0.0.1: the address may check out as often as they do.
const UNLIMITED_CHECKOUTS: (&str, &str) = ("VERANDA_COMMERCE", "{checkout_burst = 100000}");
const SHOPPERS: usize = 6;
/// Quantity changes a shopper makes before checking out.
const CHANGES_PER_ORDER: u32 = 7;

/// What the shoppers were told: per cart, the quantity of the last acknowledged change
/// and of the change in flight when the server died; and every placed order.
#[derive(Default)]
struct Acked {
    carts: HashMap<String, (u32, Option<u32>)>,
    orders: Vec<String>,
}

/// One shopper: makes a cart, changes its quantity again and again, checks out, and
/// starts over, until told to stop.
async fn shop(address: String, crumb: String, stop: Arc<AtomicBool>, acked: Arc<Mutex<Acked>>) {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(5))
        .build()
        .expect("builds");
    while !stop.load(Ordering::Relaxed) {
        let Ok(res) = client
            .post(format!("{address}/api/commerce/cart/entries"))
            .header("cookie", format!("crumb={crumb}"))
            .header("X-CSRF-Token", crumb.as_str())
            .json(&json!({ "sku": "VER-GUIDE-PDF", "quantity": 1 }))
            .send()
            .await
        else {
            return;
        };
        assert_eq!(res.status(), 200);
        let cart = res.json::<Value>().await.ok().and_then(|c| c["id"].as_str().map(str::to_string));
        let Some(cart) = cart else { return };
        acked.lock().expect("not poisoned").carts.insert(cart.clone(), (1, None));
        let cookies = format!("crumb={crumb}; cart={cart}");
        for quantity in 2..2 + CHANGES_PER_ORDER {
            acked.lock().expect("not poisoned").carts.entry(cart.clone()).and_modify(|e| e.1 = Some(quantity));
            let sent = client
                .put(format!("{address}/api/commerce/cart/entries/VER-GUIDE-PDF"))
                .header("cookie", &cookies)
                .header("X-CSRF-Token", crumb.as_str())
                .json(&json!({ "quantity": quantity }))
                .send()
                .await;
            let Ok(res) = sent else { return };
            assert_eq!(res.status(), 200, "a quantity change");
            acked.lock().expect("not poisoned").carts.insert(cart.clone(), (quantity, None));
        }
        let form = [("crumb", crumb.as_str()), ("email", "ada@example.com"), ("name", "Ada")];
        let sent = client.post(format!("{address}/checkout")).header("cookie", &cookies).form(&form).send().await;
        let Ok(res) = sent else { return };
        assert_eq!(res.status(), 303, "a checkout");
        let location = res.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or_default();
        let mut acked = acked.lock().expect("not poisoned");
        acked.orders.push(location.to_string());
        acked.carts.remove(&cart);
    }
}

#[actix_rt::test]
async fn acknowledged_cart_changes_and_orders_survive_sigkill() {
    let data = tempfile::tempdir().expect("data dir");
    let acked = Arc::new(Mutex::new(Acked::default()));
    for round in 0..=ROUNDS {
        let server = ServerProcess::start_with_env(&demo_site_dir(), data.path(), &[UNLIMITED_CHECKOUTS]).await;
        let client = reqwest::Client::new();
        let (carts, orders) = {
            let acked = acked.lock().expect("not poisoned");
            (acked.carts.clone(), acked.orders.clone())
        };
        for (cart, (quantity, in_flight)) in &carts {
            let res = client
                .get(format!("{}/api/commerce/cart", server.address))
                .header("cookie", format!("cart={cart}"))
                .send()
                .await
                .expect("answered");
            let body: Value = res.json().await.expect("json");
            let stored = body["totalQuantity"].as_u64().and_then(|q| u32::try_from(q).ok()).unwrap_or(0);
            let ok = stored == *quantity || Some(stored) == *in_flight;
            assert!(ok, "round {round}: cart {cart} holds {stored}, acknowledged {quantity} (in flight {in_flight:?})");
            // Whichever it holds is settled now.
            acked.lock().expect("not poisoned").carts.insert(cart.clone(), (stored, None));
        }
        for order in &orders {
            let res = client.get(format!("{}{order}", server.address)).send().await.expect("answered");
            assert_eq!(res.status(), 200, "round {round}: order {order} lost after SIGKILL");
        }
        eprintln!("round {round}: {} carts and {} orders checked", carts.len(), orders.len());
        if round == ROUNDS {
            break;
        }
        let crumb = crumb_of(&server.address).await;
        let stop = Arc::new(AtomicBool::new(false));
        let shoppers: Vec<_> = (0..SHOPPERS)
            .map(|_| actix_rt::spawn(shop(server.address.clone(), crumb.clone(), stop.clone(), acked.clone())))
            .collect();
        tokio::time::sleep(Duration::from_millis(100 + random_below(300))).await;
        drop(server); // SIGKILL, with requests in flight
        stop.store(true, Ordering::Relaxed);
        for shopper in shoppers {
            shopper.await.expect("a shopper finishes");
        }
    }
    let orders = acked.lock().expect("not poisoned").orders.len();
    assert!(orders >= ROUNDS, "only {orders} orders were placed in {ROUNDS} rounds");
}
