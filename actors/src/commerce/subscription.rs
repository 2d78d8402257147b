//! Subscription plans (spec 000 §3, §9): the renewal text shown beside the price and
//! on the subscription confirmation, and the price text of a plan paid in installments.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::money::{Currency, Money};
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

/// The price a shopper pays under `plan`, one payment being `payment` (000 §9 "price text
/// templates cover installment periods of weeks, months and years"; the wording is
/// `docs/commerce.md`): `$15.00 every month` for a plan that renews until cancelled,
/// `1 payment of $100.00` for a single payment, and for a fixed number of installments
/// `4 payments of $25.00, every 2 weeks ($100.00 in all)`.
pub fn installment_text(plan: &SubscriptionPlan, payment: Money) -> String {
    let each = payment.format();
    let unit = BillingUnit::parse(&plan.billing_period.unit).unwrap_or(BillingUnit::Monthly);
    let every = match plan.billing_period.value {
        0 | 1 => format!("every {}", unit.noun()),
        n => format!("every {n} {}s", unit.noun()),
    };
    match plan.num_billing_cycles {
        0 => format!("{each} {every}"),
        1 => format!("1 payment of {each}"),
        n => {
            let total = payment.minor().checked_mul(i64::from(n)).and_then(|t| Money::new(payment.currency(), t).ok());
            match total {
                Some(total) => format!("{n} payments of {each}, {every} ({} in all)", total.format()),
                None => format!("{n} payments of {each}, {every}"),
            }
        }
    }
}

/// A plan's terms as a shopper reads them wherever a subscription is bought: in the cart,
/// at checkout and on the confirmation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlanTerms {
    /// What the shopper pays ([`installment_text`]), e.g. `4 payments of $25.00, every 2
    /// weeks ($100.00 in all)`.
    pub price: String,
    /// How the plan renews ([`renewal_text`]), e.g. `Renews every 2 weeks, 4 payments in all`.
    pub renewal: String,
}

impl PlanTerms {
    /// The terms of `plan`, one payment being `payment`.
    pub fn of(plan: &SubscriptionPlan, payment: Money) -> PlanTerms {
        PlanTerms { price: installment_text(plan, payment), renewal: renewal_text(plan) }
    }

    /// The terms of `plan` when one payment is `cents` minor units of `currency`; none when
    /// that is too large to be money.
    pub fn of_cents(plan: &SubscriptionPlan, cents: u64, currency: Currency) -> Option<PlanTerms> {
        Some(PlanTerms::of(plan, Money::new(currency, i64::try_from(cents).ok()?).ok()?))
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

    fn usd(cents: i64) -> Money {
        let usd = crate::commerce::money::Currency::parse("USD").expect("USD is a currency");
        Money::new(usd, cents).expect("a small amount")
    }

    #[test]
    fn installments_are_counted_in_weeks_months_and_years() {
        // 000 §9: installment periods of weeks, months and years, singular and plural.
        assert_eq!(
            installment_text(&plan(2, "weekly", 4), usd(2500)),
            "4 payments of $25.00, every 2 weeks ($100.00 in all)"
        );
        assert_eq!(
            installment_text(&plan(1, "weekly", 3), usd(1000)),
            "3 payments of $10.00, every week ($30.00 in all)"
        );
        assert_eq!(
            installment_text(&plan(1, "monthly", 12), usd(999)),
            "12 payments of $9.99, every month ($119.88 in all)"
        );
        assert_eq!(
            installment_text(&plan(3, "monthly", 2), usd(5000)),
            "2 payments of $50.00, every 3 months ($100.00 in all)"
        );
        assert_eq!(
            installment_text(&plan(1, "yearly", 2), usd(12000)),
            "2 payments of $120.00, every year ($240.00 in all)"
        );
        assert_eq!(
            installment_text(&plan(2, "yearly", 5), usd(100)),
            "5 payments of $1.00, every 2 years ($5.00 in all)"
        );
    }

    #[test]
    fn a_single_payment_and_an_open_ended_plan_read_as_such() {
        assert_eq!(installment_text(&plan(1, "monthly", 1), usd(10000)), "1 payment of $100.00");
        assert_eq!(installment_text(&plan(1, "monthly", 0), usd(1500)), "$15.00 every month");
        assert_eq!(installment_text(&plan(2, "weekly", 0), usd(4000)), "$40.00 every 2 weeks");
    }

    #[test]
    fn a_total_too_large_to_show_is_left_out() {
        let huge = usd(10_i64.pow(16));
        let text = installment_text(&plan(1, "monthly", u32::MAX), huge);
        assert!(text.starts_with("4294967295 payments of ") && !text.contains("in all"), "{text}");
    }
}
