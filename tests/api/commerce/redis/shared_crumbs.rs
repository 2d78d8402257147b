//! Instances sharing a Redis sign crumbs with one key (stored by the first with `SET NX`),
//! so a crumb handed out by one is accepted by the other.

use super::harness::{Door, Pair};

#[actix_rt::test]
async fn a_crumb_from_one_instance_is_accepted_by_the_other() {
    let Some(pair) = Pair::if_installed(6).await else { return };
    let Pair { client, doors, redis, .. } = &pair;
    assert_eq!(redis.cli(&["STRLEN", "veranda:crumb_key"]), "32", "the shared key is in Redis");
    assert_ne!(doors[0].crumb, doors[1].crumb);
    for (from, to) in [(0, 1), (1, 0)] {
        let crossed = Door { address: doors[to].address.clone(), crumb: doors[from].crumb.clone() };
        let res = crossed.add(client, None, "VER-GUIDE-PDF", 1).await;
        assert_eq!(res.status(), 200, "a crumb of instance {from} on instance {to}");
    }
    let forged = Door { address: doors[1].address.clone(), crumb: format!("A{}", &doors[0].crumb[1..]) };
    let forged = if forged.crumb == doors[0].crumb {
        Door { crumb: format!("B{}", &doors[0].crumb[1..]), ..forged }
    } else {
        forged
    };
    assert_eq!(forged.add(client, None, "VER-GUIDE-PDF", 1).await.status(), 403, "a tampered crumb is still refused");
}
