-- Tests/SQL/followup.rules, placement `followup`, written by hand for Spark SQL over the typed
-- table of `sql --schema --table bench_columns` (Parquet): the audience each profile takes, counted.
-- `profile.age >= 25` at 2026-11-29T12:00:00Z is `birthday <= DATE '2001-11-29'`.
SELECT
  CASE
    WHEN ca_experience = 'beginner' AND ca_weekly_hours BETWEEN 3 AND 20 THEN 'regular_starters'
    WHEN ca_experience IN ('amateur', 'pro') AND arrays_overlap(ca_interests, array('b,c', 'x y', 'sports')) THEN 'going_wide'
    WHEN array_contains(ca_interests, 'a') AND ca_reminders THEN 'reminded_a'
    WHEN birthday <= DATE '2001-11-29' AND country IN ('US', 'GB', 'DE') AND platform = 'ios' THEN 'grown_us_ios'
    WHEN ca_reminders IS NOT TRUE AND (ca_weekly_hours BETWEEN 3 AND 20) IS NOT TRUE THEN 'quiet'
    ELSE 'everyone'
  END AS audience,
  count(*) AS profiles
FROM bench_columns
GROUP BY 1
