-- Tests/SQL/followup.rules, placement `followup`, written by hand for PostgreSQL over
-- bench_json(profile jsonb) holding clean profiles: the audience each profile takes, counted.
-- `profile.age >= 25` at 2026-11-29T12:00:00Z is a birthday on or before 2001-11-29.
SELECT
  CASE
    WHEN profile->'custom_attributes'->>'experience' = 'beginner'
     AND (profile->'custom_attributes'->>'weekly_hours')::float8 BETWEEN 3 AND 20 THEN 'regular_starters'
    WHEN profile->'custom_attributes'->>'experience' IN ('amateur', 'pro')
     AND string_to_array(profile->'custom_attributes'->>'interests', ',') && ARRAY['b,c', 'x y', 'sports'] THEN 'going_wide'
    WHEN 'a' = ANY(string_to_array(profile->'custom_attributes'->>'interests', ','))
     AND (profile->'custom_attributes'->>'reminders')::boolean THEN 'reminded_a'
    WHEN (profile->>'birthday')::date <= DATE '2001-11-29'
     AND profile->>'country' IN ('US', 'GB', 'DE') AND profile->>'platform' = 'ios' THEN 'grown_us_ios'
    WHEN (profile->'custom_attributes'->>'reminders')::boolean IS NOT TRUE
     AND ((profile->'custom_attributes'->>'weekly_hours')::float8 BETWEEN 3 AND 20) IS NOT TRUE THEN 'quiet'
    ELSE 'everyone'
  END AS audience,
  count(*) AS profiles
FROM bench_json
GROUP BY 1
