use super::*;

fn from<'a>(account: &'a str, address: &'a str) -> Attempter<'a> {
    Attempter { account, address, device: None }
}

fn throttle() -> LoginThrottle {
    LoginThrottle::new(crate::settings::DEFAULT_THROTTLE_MAX_ENTRIES, "test")
}

#[test]
fn the_sixth_failure_from_one_address_is_refused_until_the_window_passes() {
    let throttle = throttle();
    let start = Instant::now();
    for i in 0..MAX_FAILURES {
        let at = start + Duration::from_secs(i as u64);
        throttle.begin(from("Ann@example.com", "10.0.0.1"), at).expect("allowed");
    }
    let later = start + Duration::from_secs(60);
    let wait = throttle.begin(from("ann@example.com", "10.0.0.1"), later).expect_err("refused");
    assert_eq!(wait, WINDOW - Duration::from_secs(60));
    assert_eq!(retry_after_secs(wait), 840);
    assert!(throttle.begin(from("ann@example.com", "10.0.0.1"), start + WINDOW).is_ok(), "the oldest expired");
}

#[test]
fn an_address_is_limited_across_accounts() {
    let throttle = throttle();
    let now = Instant::now();
    for i in 0..MAX_FAILURES {
        throttle.begin(from(&format!("user{i}@example.com"), "10.0.0.1"), now).expect("allowed");
    }
    assert!(throttle.begin(from("other@example.com", "10.0.0.1"), now).is_err());
    assert!(throttle.begin(from("other@example.com", "10.0.0.2"), now).is_ok());
}

#[test]
fn an_attacked_account_still_opens_for_a_client_without_failures() {
    let throttle = throttle();
    let now = Instant::now();
    for i in 0..MAX_FAILURES {
        throttle.begin(from("ann@example.com", &format!("10.0.0.{i}")), now).expect("allowed");
    }
    // Each guessing address has a failure of its own: the locked account refuses it.
    assert!(throttle.begin(from("ann@example.com", "10.0.0.1"), now).is_err());
    // A fresh address gets its attempt, once.
    throttle.begin(from("ann@example.com", "192.0.2.8"), now).expect("a fresh client is let through");
    assert!(throttle.begin(from("ann@example.com", "192.0.2.8"), now).is_err(), "one guess only");
    // Another account from a guessing address is not affected.
    assert!(throttle.begin(from("bob@example.com", "10.0.0.1"), now).is_ok());
}

#[test]
fn a_device_counts_only_its_own_failures() {
    let throttle = throttle();
    let now = Instant::now();
    for _ in 0..MAX_FAILURES {
        throttle.begin(from("ann@example.com", "10.0.0.1"), now).expect("allowed");
    }
    let device = Attempter { account: "ann@example.com", address: "10.0.0.1", device: Some("d1") };
    let attempt = throttle.begin(device, now).expect("the device works from the locked address");
    throttle.succeeded(attempt);
    for _ in 0..MAX_FAILURES {
        throttle.begin(device, now).expect("allowed");
    }
    assert!(throttle.begin(device, now).is_err(), "a guessing device locks itself");
    assert!(throttle.begin(Attempter { device: Some("d2"), ..device }, now).is_ok(), "not another device");
}

#[test]
fn a_success_clears_the_account_and_uncounts_itself() {
    let throttle = throttle();
    let now = Instant::now();
    for _ in 0..MAX_FAILURES - 1 {
        throttle.begin(from("ann@example.com", "10.0.0.1"), now).expect("allowed");
    }
    let attempt = throttle.begin(from("ann@example.com", "10.0.0.1"), now).expect("the fifth is allowed");
    throttle.succeeded(attempt);
    assert!(throttle.begin(from("bob@example.com", "10.0.0.1"), now).is_ok(), "the success does not count");
    assert!(throttle.begin(from("carl@example.com", "10.0.0.1"), now).is_err(), "the address keeps its failures");
}

#[test]
fn a_full_table_evicts_the_least_recently_used_instead_of_refusing() {
    let throttle = LoginThrottle::new(6, "test");
    let now = Instant::now();
    for i in 0..20 {
        throttle.begin(from(&format!("user{i}@example.com"), &format!("10.0.1.{i}")), now).expect("never refused");
        assert!(throttle.len() <= 6);
    }
    assert!(throttle.begin(from("ann@example.com", "192.0.2.1"), now).is_ok(), "a fresh client");
    assert_eq!(throttle.len(), 6);
}

#[test]
fn retry_after_rounds_up_to_whole_seconds() {
    assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
    assert_eq!(retry_after_secs(Duration::from_millis(1500)), 2);
    assert_eq!(retry_after_secs(Duration::ZERO), 1);
}
