//! Carts, inventory and checkout on a real sled store: concurrent checkouts never
//! oversell, changes survive a restart, idle carts stop and come back.

use std::sync::Arc;
use std::time::Duration;

use actix::Actor;
use veranda_actors::commerce::cart::{CartChange, CartError};
use veranda_actors::commerce::carts::{CartShared, Carts};
use veranda_actors::commerce::catalog::Catalog;
use veranda_actors::commerce::inventory::{GetStock, Inventory};
use veranda_actors::commerce::money::Currency;
use veranda_actors::commerce::order::{Customer, OfflineProvider, OrderKind};
use veranda_actors::commerce::rules::{ShippingOption, StoreRules};
use veranda_actors::commerce::storage::{CommerceStorage, StoreStorage};
use veranda_actors::domain::enums::ProductType;
use veranda_actors::site::content::{Product, Variant};
use veranda_actors::store::{SledStore, Store};

fn catalog(stock: u32) -> Catalog {
    priced_catalog(stock, 2200)
}

fn priced_catalog(stock: u32, price: u64) -> Catalog {
    let mut catalog = Catalog::default();
    let mug = Product {
        product_type: ProductType::Physical,
        variants: vec![Variant {
            sku: "MUG".into(),
            price,
            sale_price: 0,
            on_sale: false,
            qty_in_stock: stock,
            unlimited: false,
            option_values: vec![],
        }],
        subscription: None,
        weight: None,
        dimensions: None,
    };
    catalog.add("mug", "Mug", &mug, true);
    catalog
}

fn carts(store: Arc<dyn Store>, stock: u32, idle: Duration) -> Carts {
    Carts::new(shared(store, stock, idle))
}

fn shared(store: Arc<dyn Store>, stock: u32, idle: Duration) -> CartShared {
    let storage: Arc<dyn CommerceStorage> = Arc::new(StoreStorage::new(store));
    let catalog = catalog(stock);
    let inventory = Inventory::load(&catalog, storage.clone()).expect("stock loads").start();
    CartShared {
        catalog: catalog.into(),
        rules: StoreRules {
            shipping: vec![ShippingOption { id: "standard".into(), name: "Standard".into(), cost_cents: 600 }],
            ..StoreRules::default()
        },
        storage,
        inventory,
        payments: Arc::new(OfflineProvider),
        website_id: "site".into(),
        currency: Currency::USD,
        idle,
        hold: Duration::from_secs(3600),
    }
}

fn customer() -> Customer {
    Customer { email: "ada@example.com".into(), name: "Ada".into(), country: "US".into(), ..Customer::default() }
}

#[actix::test]
async fn two_hundred_concurrent_checkouts_for_ten_units_make_ten_orders() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let carts = Arc::new(carts(store.clone(), 10, Duration::from_secs(60)));
    for i in 0..200 {
        carts
            .change(&format!("cart-{i}"), CartChange::AddEntry { sku: "MUG".into(), quantity: 1 })
            .await
            .expect("adds");
    }
    let checkouts = (0..200).map(|i| {
        let carts = carts.clone();
        actix::spawn(async move { carts.place_order(&format!("cart-{i}"), customer(), OrderKind::Order).await })
    });
    let results = futures_join(checkouts.collect()).await;
    let placed = results.iter().filter(|r| r.is_ok()).count();
    let refused = results.iter().filter(|r| matches!(r, Err(CartError::OutOfStock { .. }))).count();
    assert_eq!((placed, refused), (10, 190));
    let inventory = carts.shared().inventory.clone();
    assert_eq!(inventory.send(GetStock("MUG".into())).await.expect("answers"), Some(0));
    let storage = StoreStorage::new(store.clone());
    assert_eq!(storage.orders(1000).expect("orders read").len(), 10);
    assert_eq!(storage.load_stock("MUG").expect("reads"), Some(0));
}

#[actix::test]
async fn an_open_cart_is_checked_out_at_the_price_in_force() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let carts = carts(store, 10, Duration::from_secs(60));
    let cart = carts.change("c", CartChange::AddEntry { sku: "MUG".into(), quantity: 2 }).await.expect("adds");
    assert_eq!(cart.subtotal_cents, 4400);
    carts.shared().catalog.replace(priced_catalog(10, 2500));
    let order = carts.place_order("c", customer(), OrderKind::Order).await.expect("placed");
    assert_eq!(order.subtotal_cents, 5000, "two mugs at the new 2500");
    assert_eq!(order.grand_total_cents, 5000 + 600);
    assert_eq!(order.entries[0].unit_price_cents, 2500);
}

#[actix::test]
async fn a_cart_is_checked_out_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let carts = carts(store, 10, Duration::from_secs(60));
    carts.change("c", CartChange::AddEntry { sku: "MUG".into(), quantity: 2 }).await.expect("adds");
    let order = carts.place_order("c", customer(), OrderKind::Order).await.expect("placed");
    assert_eq!(order.grand_total_cents, 4400 + 600);
    assert_eq!(carts.place_order("c", customer(), OrderKind::Order).await, Err(CartError::Purchased));
    let cart = carts.get("c").await.expect("answers").expect("exists");
    assert!(cart.is_purchased);
    assert_eq!(cart.order_id, order.id);
    assert_eq!(carts.place_order("empty", customer(), OrderKind::Order).await, Err(CartError::Empty));
    let live = carts.live();
    assert_eq!(carts.get("made-up").await, Ok(None));
    assert_eq!(carts.live(), live, "reading an unknown cart starts no actor");
}

#[actix::test]
async fn acknowledged_changes_survive_a_restart_and_idle_carts_rehydrate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    // Idle is counted from the answer, so a slow durable write does not stop the actor early.
    let first = carts(store.clone(), 10, Duration::from_millis(200));
    first.change("c", CartChange::AddEntry { sku: "MUG".into(), quantity: 3 }).await.expect("adds");
    assert_eq!(first.live(), 1);
    for _ in 0..500 {
        if first.live() == 0 {
            break;
        }
        actix::clock::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(first.live(), 0, "the idle cart stopped");
    let cart = first.get("c").await.expect("answers").expect("rehydrated");
    assert_eq!(cart.total_quantity, 3);

    let restarted = carts(store, 10, Duration::from_secs(60));
    let cart = restarted.get("c").await.expect("answers").expect("stored");
    assert_eq!((cart.total_quantity, cart.subtotal_cents), (3, 6600));
}

#[actix::test]
async fn past_the_most_live_actors_the_least_recently_used_stops_and_no_change_is_lost() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let carts = Arc::new(Carts::bounded(shared(store.clone(), 1000, Duration::from_secs(60)), 3));
    let changes = (0..20).map(|i| {
        let carts = carts.clone();
        actix::spawn(async move {
            for _ in 0..5 {
                let add = CartChange::AddEntry { sku: "MUG".into(), quantity: 1 };
                carts.change(&format!("cart-{i}"), add).await.expect("adds");
            }
        })
    });
    futures_join(changes.collect()).await;
    assert!(carts.live() <= 3, "at most three actors run: {}", carts.live());
    let storage = StoreStorage::new(store);
    for i in 0..20 {
        let id = format!("cart-{i}");
        let stored = storage.load_cart(&id).expect("reads").expect("stored");
        assert_eq!(stored.total_quantity, 5, "every acknowledged change of {id} is kept");
        let cart = carts.get(&id).await.expect("answers").expect("exists");
        assert_eq!(cart.total_quantity, 5, "{id} comes back whole");
    }
    assert!(carts.live() <= 3);
}

/// Awaits every join handle, in order.
async fn futures_join<T: 'static>(handles: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::with_capacity(handles.len());
    for handle in handles {
        out.push(handle.await.expect("the task completes"));
    }
    out
}

#[actix::test]
async fn calls_arriving_as_an_idle_cart_stops_are_answered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
    let carts = Arc::new(carts(store, 1000, Duration::from_millis(20)));
    carts.change("c", CartChange::AddEntry { sku: "MUG".into(), quantity: 1 }).await.expect("adds");
    // Pauses around the idle time, so calls keep landing while the actor retires.
    for round in 0..60u64 {
        actix::clock::sleep(Duration::from_millis(15 + round % 15)).await;
        let calls = (0..4).map(|_| {
            let carts = carts.clone();
            actix::spawn(async move { carts.get("c").await })
        });
        for call in futures_join(calls.collect()).await {
            let cart = call.expect("answers").expect("exists");
            assert_eq!(cart.total_quantity, 1, "round {round}");
        }
    }
    let cart = carts.change("c", CartChange::AddEntry { sku: "MUG".into(), quantity: 1 }).await.expect("adds");
    assert_eq!(cart.total_quantity, 2, "nothing was lost across the restarts");
}
