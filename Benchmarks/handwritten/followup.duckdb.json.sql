-- Tests/SQL/followup.rules, placement `followup`, written by hand for DuckDB over
-- bench_json(profile JSON) holding clean profiles: the audience each profile takes, counted.
-- `profile.age >= 25` at 2026-11-29T12:00:00Z is a birthday on or before 2001-11-29.
SELECT
  CASE
    WHEN profile->>'$.custom_attributes.experience' = 'beginner'
     AND (profile->>'$.custom_attributes.weekly_hours')::DOUBLE BETWEEN 3 AND 20 THEN 'regular_starters'
    WHEN profile->>'$.custom_attributes.experience' IN ('amateur', 'pro')
     AND list_has_any(string_split(profile->>'$.custom_attributes.interests', ','), ['b,c', 'x y', 'sports']) THEN 'going_wide'
    WHEN list_contains(string_split(profile->>'$.custom_attributes.interests', ','), 'a')
     AND (profile->>'$.custom_attributes.reminders')::BOOLEAN THEN 'reminded_a'
    WHEN (profile->>'$.birthday')::DATE <= DATE '2001-11-29'
     AND profile->>'$.country' IN ('US', 'GB', 'DE') AND profile->>'$.platform' = 'ios' THEN 'grown_us_ios'
    WHEN (profile->>'$.custom_attributes.reminders')::BOOLEAN IS NOT TRUE
     AND ((profile->>'$.custom_attributes.weekly_hours')::DOUBLE BETWEEN 3 AND 20) IS NOT TRUE THEN 'quiet'
    ELSE 'everyone'
  END AS audience,
  count(*) AS profiles
FROM bench_json
GROUP BY 1
