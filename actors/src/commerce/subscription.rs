//! Subscription plans (spec 000 §3, §9): the renewal text shown beside the price and
//! on the subscription confirmation.

use crate::site::content::SubscriptionPlan;

/// The unit of a billing period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillingUnit {
    /// Every week(s).
    Weekly,
    /// Every month(s).
    Monthly,
    /// Every year(s).
    Yearly,
}

impl BillingUnit {
    /// The unit named `weekly`, `monthly` or `yearly`.
    pub fn parse(name: &str) -> Option<BillingUnit> {
        match name {
            "weekly" => Some(BillingUnit::Weekly),
            "monthly" => Some(BillingUnit::Monthly),
            "yearly" => Some(BillingUnit::Yearly),
            _ => None,
        }
    }

    /// The singular period noun: week, month, year.
    pub fn noun(self) -> &'static str {
        match self {
            BillingUnit::Weekly => "week",
            BillingUnit::Monthly => "month",
            BillingUnit::Yearly => "year",
        }
    }
}

/// How the plan renews, e.g. `Renews weekly until cancelled`, `Renews every 3 months,
/// 12 payments in all`. `numBillingCycles` 0 means indefinite.
pub fn renewal_text(plan: &SubscriptionPlan) -> String {
    let unit = BillingUnit::parse(&plan.billing_period.unit).unwrap_or(BillingUnit::Monthly);
    let every = match plan.billing_period.value {
        0 | 1 => plan.billing_period.unit.clone(),
        n => format!("every {n} {}s", unit.noun()),
    };
    match plan.num_billing_cycles {
        0 => format!("Renews {every} until cancelled"),
        1 => format!("Renews {every}, 1 payment in all"),
        n => format!("Renews {every}, {n} payments in all"),
    }
}

/// The price with its period, e.g. `$15 every month`, `$40 every 2 weeks`.
pub fn price_text(plan: &SubscriptionPlan, price: &str) -> String {
    let unit = BillingUnit::parse(&plan.billing_period.unit).unwrap_or(BillingUnit::Monthly);
    match plan.billing_period.value {
        0 | 1 => format!("{price} every {}", unit.noun()),
        n => format!("{price} every {n} {}s", unit.noun()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::content::BillingPeriod;

    fn plan(value: u32, unit: &str, cycles: u32) -> SubscriptionPlan {
        SubscriptionPlan { billing_period: BillingPeriod { value, unit: unit.into() }, num_billing_cycles: cycles }
    }

    #[test]
    fn zero_cycles_renew_until_cancelled() {
        assert_eq!(renewal_text(&plan(1, "weekly", 0)), "Renews weekly until cancelled");
        assert_eq!(renewal_text(&plan(1, "yearly", 0)), "Renews yearly until cancelled");
    }

    #[test]
    fn counted_cycles_and_longer_periods_are_spelled_out() {
        assert_eq!(renewal_text(&plan(3, "monthly", 12)), "Renews every 3 months, 12 payments in all");
        assert_eq!(renewal_text(&plan(1, "monthly", 1)), "Renews monthly, 1 payment in all");
        assert_eq!(price_text(&plan(2, "weekly", 0), "$40"), "$40 every 2 weeks");
        assert_eq!(price_text(&plan(1, "yearly", 0), "$100"), "$100 every year");
    }
}
