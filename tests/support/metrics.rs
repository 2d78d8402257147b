//! Reading a server's `/metrics`: one scrape, and the value of a series in it.

/// The Prometheus text of `/metrics` at `ops_address` (`http://127.0.0.1:<port>`).
pub async fn scrape(ops_address: &str) -> String {
    let res = reqwest::get(format!("{ops_address}/metrics")).await.expect("/metrics answers");
    assert_eq!(res.status().as_u16(), 200, "/metrics answers 200");
    res.text().await.expect("the metrics text")
}

/// The sum of the samples in `text` of the metric named exactly `metric` that carry every
/// label of `labels` (others may be there too); `None` when there is no such sample.
pub fn sample(text: &str, metric: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let values: Vec<f64> = text
        .lines()
        .filter(|l| l.strip_prefix(metric).is_some_and(|rest| rest.starts_with(['{', ' '])))
        .filter(|l| labels.iter().all(|(k, v)| l.contains(&format!("{k}=\"{v}\""))))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .collect();
    (!values.is_empty()).then(|| values.iter().sum())
}

/// [`sample`] of a fresh scrape of `ops_address`.
pub async fn scraped(ops_address: &str, metric: &str, labels: &[(&str, &str)]) -> Option<f64> {
    sample(&scrape(ops_address).await, metric, labels)
}

#[cfg(test)]
mod tests {
    use super::sample;

    const TEXT: &str = "# TYPE t counter\nt{table=\"telemetry\"} 2\nt{table=\"telemetry_bytes\"} 5\n\
                        t_total 9\nu{a=\"1\",b=\"x\"} 1\nu{a=\"2\",b=\"x\"} 3\n";

    #[test]
    fn a_series_is_matched_by_its_exact_name_and_labels() {
        assert_eq!(sample(TEXT, "t", &[("table", "telemetry")]), Some(2.0));
        assert_eq!(sample(TEXT, "t", &[("table", "telemetry_bytes")]), Some(5.0));
        assert_eq!(sample(TEXT, "u", &[("b", "x")]), Some(4.0), "every matching sample, summed");
        assert_eq!(sample(TEXT, "t_total", &[]), Some(9.0));
        assert_eq!(sample(TEXT, "t", &[("table", "places")]), None);
        assert_eq!(sample(TEXT, "v", &[]), None);
    }
}
