-- Tests/SQL/followup.rules, placement `followup`, written by hand for Spark SQL over
-- bench_json(profile STRING) holding clean profiles: the audience each profile takes, counted.
-- `profile.age >= 25` at 2026-11-29T12:00:00Z is a birthday on or before 2001-11-29.
SELECT
  CASE
    WHEN get_json_object(profile, '$.custom_attributes.experience') = 'beginner'
     AND CAST(get_json_object(profile, '$.custom_attributes.weekly_hours') AS DOUBLE) BETWEEN 3 AND 20 THEN 'regular_starters'
    WHEN get_json_object(profile, '$.custom_attributes.experience') IN ('amateur', 'pro')
     AND arrays_overlap(split(get_json_object(profile, '$.custom_attributes.interests'), ','), array('b,c', 'x y', 'sports')) THEN 'going_wide'
    WHEN array_contains(split(get_json_object(profile, '$.custom_attributes.interests'), ','), 'a')
     AND CAST(get_json_object(profile, '$.custom_attributes.reminders') AS BOOLEAN) THEN 'reminded_a'
    WHEN CAST(get_json_object(profile, '$.birthday') AS DATE) <= DATE '2001-11-29'
     AND get_json_object(profile, '$.country') IN ('US', 'GB', 'DE') AND get_json_object(profile, '$.platform') = 'ios' THEN 'grown_us_ios'
    WHEN CAST(get_json_object(profile, '$.custom_attributes.reminders') AS BOOLEAN) IS NOT TRUE
     AND (CAST(get_json_object(profile, '$.custom_attributes.weekly_hours') AS DOUBLE) BETWEEN 3 AND 20) IS NOT TRUE THEN 'quiet'
    ELSE 'everyone'
  END AS audience,
  count(*) AS profiles
FROM bench_json
GROUP BY 1
