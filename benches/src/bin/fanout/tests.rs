//! The fan-out client's options, frames, producers and /proc readings.

use super::*;

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn options_are_loopback_and_bounded() {
    let veranda = ["veranda", "--address", "http://127.0.0.1:8080", "--session", "s"];
    assert!(parse(&args(&veranda)).is_ok());
    assert!(parse(&args(&["veranda", "--address", "http://127.0.0.1:8080"])).is_err());
    assert!(parse(&args(&["veranda", "--address", "http://192.168.1.2:80", "--session", "s"])).is_err());
    let mut too_many = args(&veranda);
    too_many.extend(args(&["--subscribers", "20001"]));
    assert!(parse(&too_many).is_err());
    let mut zero_rate = args(&veranda);
    zero_rate.extend(args(&["--rate", "0"]));
    assert!(parse(&zero_rate).is_err());
    assert!(parse(&args(&["pushpin", "--address", "http://127.0.0.1:7999"])).is_err());
    let pushpin = parse(&args(&[
        "pushpin",
        "--address",
        "http://127.0.0.1:7999",
        "--publish",
        "http://127.0.0.1:5561",
        "--payload-bytes",
        "400",
    ]))
    .unwrap();
    assert_eq!((pushpin.side, pushpin.payload_bytes), (Side::Pushpin, 400));
    assert!(parse(&args(&["nginx"])).is_err());
}

#[test]
fn the_direct_producer_needs_a_loopback_redis_url_and_veranda() {
    let veranda = args(&["veranda", "--address", "http://127.0.0.1:8080", "--session", "s"]);
    let with = |extra: &[&str]| {
        let mut list = veranda.clone();
        list.extend(args(extra));
        parse(&list)
    };
    assert_eq!(with(&[]).unwrap().source, Source::Edit);
    assert!(with(&["--producer", "direct"]).unwrap_err().contains("--redis-url"));
    let direct = with(&["--producer", "direct", "--redis-url", "redis://127.0.0.1:6390/"]).unwrap();
    assert_eq!((direct.source, direct.redis_url.as_str()), (Source::Direct, "redis://127.0.0.1:6390/"));
    assert!(with(&["--producer", "direct", "--redis-url", "redis://10.0.0.2:6379/"]).is_err());
    assert!(with(&["--producer", "direct", "--redis-url", "redis://127.0.0.1:x/"]).is_err());
    assert!(with(&["--producer", "push"]).unwrap_err().contains("edit or direct"));
    let pushpin = ["pushpin", "--address", "http://127.0.0.1:1", "--publish", "http://127.0.0.1:2"];
    let mut direct_pushpin = args(&pushpin);
    direct_pushpin.extend(args(&["--producer", "direct", "--redis-url", "redis://127.0.0.1:3/"]));
    assert!(parse(&direct_pushpin).is_err());
}

#[test]
fn the_direct_event_is_an_edit_event_of_an_edits_frame_size() {
    let data = direct_event();
    assert_eq!(data["name"], "UserSavesBlockContent");
    assert_eq!(data["paths"][0], "/about");
    let stored = veranda_actors::streams::StoredEvent {
        epoch: "m1abcdefghijklmn".into(),
        offset: 12_345,
        at: 1_800_000_000_000,
        data,
    };
    let frame = veranda_actors::streams::Frame::event(StreamName::Edits, &stored).to_json();
    assert!((250..=350).contains(&frame.len()), "{} bytes: {frame}", frame.len());
}

#[test]
fn frames_are_read_by_their_leading_fields() {
    let hello = r#"{"type":"hello","stream":"edits","epoch":"e","offset":41}"#;
    let event = r#"{"type":"event","stream":"edits","epoch":"e","offset":42,"at":1,"data":{"offset":7}}"#;
    assert_eq!(read_frame(Side::Veranda, hello), Frame::Ready { offset: 41 });
    assert_eq!(read_frame(Side::Veranda, event), Frame::Event { number: 42 });
    assert_eq!(read_frame(Side::Veranda, r#"{"type":"reset","offset":3}"#), Frame::Other);
    assert_eq!(read_frame(Side::Pushpin, r#"{"warm":1}"#), Frame::Ready { offset: 0 });
    assert_eq!(read_frame(Side::Pushpin, r#"{"seq":17,"sent":5,"pad":"xx"}"#), Frame::Event { number: 17 });
    assert_eq!(read_frame(Side::Pushpin, event), Frame::Other);
}

#[test]
fn the_memory_and_cpu_time_of_this_process_are_readable() {
    let rss = rss_tree_kib(std::process::id()).unwrap();
    assert!(rss > 0);
    let before = cpu_tree_ms(std::process::id()).unwrap();
    let spin = Instant::now();
    let mut x = 0u64;
    while spin.elapsed() < Duration::from_millis(60) {
        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
    }
    let after = cpu_tree_ms(std::process::id()).unwrap();
    assert!(after >= before + 20, "{before} → {after} ms after spinning 60 ms");
    assert!(cpu_tree_ms(u32::MAX).is_none());
}

#[test]
fn frames_missed_on_closed_sockets_are_counted_apart_from_lost_ones() {
    let ending = |received: usize, ready: bool, closed: bool| Ending { latencies: vec![1; received], ready, closed };
    assert_eq!(ending(10, true, false).missing(10), (0, 0));
    assert_eq!(ending(7, true, false).missing(10), (3, 0));
    assert_eq!(ending(4, true, true).missing(10), (0, 6));
    assert_eq!(ending(0, false, true).missing(10), (0, 0));
    assert_eq!(ending(0, false, false).missing(10), (0, 0));
}

#[test]
fn open_loop_events_are_due_at_even_intervals() {
    assert_eq!(due_micros(5_000, 0, 100), 5_000);
    assert_eq!(due_micros(5_000, 1, 100), 15_000);
    assert_eq!(due_micros(0, 3, 3), 1_000_000);
    assert_eq!(due_micros(0, 999, 1_000), 999_000);
}

#[test]
fn the_schedule_is_closed_unless_open_is_asked() {
    let base = ["pushpin", "--address", "http://127.0.0.1:1", "--publish", "http://127.0.0.1:2"];
    assert_eq!(parse(&args(&base)).unwrap().schedule, Schedule::Closed);
    let mut open = args(&base);
    open.extend(args(&["--schedule", "open"]));
    assert_eq!(parse(&open).unwrap().schedule, Schedule::Open);
    let mut wrong = args(&base);
    wrong.extend(args(&["--schedule", "later"]));
    assert!(parse(&wrong).unwrap_err().contains("closed or open"));
}

#[test]
fn subscribers_are_split_evenly_over_several_loopback_instances() {
    let two = "http://127.0.0.1:8081,http://127.0.0.1:8082";
    let base = ["veranda", "--address", two, "--session", "s", "--producer", "direct"];
    let with = |extra: &[&str]| {
        let mut list = args(&base);
        list.extend(args(&["--redis-url", "redis://127.0.0.1:6390/"]));
        list.extend(args(extra));
        parse(&list)
    };
    let options = with(&["--rss-pid", "11,12"]).unwrap();
    assert_eq!(options.addresses, vec!["http://127.0.0.1:8081".to_string(), "http://127.0.0.1:8082".to_string()]);
    assert_eq!((options.address.as_str(), options.rss_pids.as_slice()), ("http://127.0.0.1:8081", &[11, 12][..]));
    assert!(with(&["--rss-pid", "11"]).unwrap_err().contains("one process per --address"));
    assert!(with(&[]).unwrap().rss_pids.is_empty(), "not measured");
    let foreign = ["veranda", "--address", "http://127.0.0.1:1,http://10.0.0.2:2", "--session", "s"];
    assert!(parse(&args(&foreign)).is_err(), "every instance is loopback");
    let pushpin = ["pushpin", "--address", two, "--publish", "http://127.0.0.1:2"];
    assert!(parse(&args(&pushpin)).unwrap_err().contains("one --address"));
    let split: Vec<usize> = (0..5).map(|n| instance_of(n, 2)).collect();
    assert_eq!(split, vec![0, 1, 0, 1, 0]);
    assert_eq!(instance_of(7, 1), 0);
    assert_eq!(per_instance([3, 4]), "3/4");
}

#[tokio::test]
async fn each_instance_s_memory_and_cpu_time_are_measured_apart() {
    let me = std::process::id();
    let mut meters = Meters::start(&[me, me]);
    meters.start_cpu();
    let spin = Instant::now();
    let mut x = 0u64;
    while spin.elapsed() < Duration::from_millis(60) {
        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
    }
    let usage = meters.finish();
    assert_eq!(usage.len(), 2);
    for used in &usage {
        assert!(used.rss_idle_kib.is_some_and(|kib| kib > 0) && used.rss_peak_kib > 0, "{used:?}");
        assert!(used.cpu_ms.is_some_and(|ms| ms >= 20), "{used:?} after spinning 60 ms");
    }
    assert!(Meters::start(&[]).finish().is_empty(), "nothing measured");
}
