-- Tests/SQL/followup.rules, placement `followup`, written by hand for ClickHouse over
-- bench_json(profile String) holding clean profiles: the audience each profile takes, counted.
-- `profile.age >= 25` at 2026-11-29T12:00:00Z is a birthday on or before 2001-11-29. A member
-- the profile lacks is NULL (a Nullable type), not JSONExtractFloat's 0 or JSONExtractBool's false.
SELECT
  CASE
    WHEN JSONExtractString(profile, 'custom_attributes', 'experience') = 'beginner'
     AND JSONExtract(profile, 'custom_attributes', 'weekly_hours', 'Nullable(Float64)') BETWEEN 3 AND 20 THEN 'regular_starters'
    WHEN JSONExtractString(profile, 'custom_attributes', 'experience') IN ('amateur', 'pro')
     AND hasAny(splitByChar(',', JSONExtractString(profile, 'custom_attributes', 'interests')), ['b,c', 'x y', 'sports']) THEN 'going_wide'
    WHEN has(splitByChar(',', JSONExtractString(profile, 'custom_attributes', 'interests')), 'a')
     AND JSONExtract(profile, 'custom_attributes', 'reminders', 'Nullable(Bool)') THEN 'reminded_a'
    WHEN toDate32OrNull(JSONExtractString(profile, 'birthday')) <= toDate32('2001-11-29')
     AND JSONExtractString(profile, 'country') IN ('US', 'GB', 'DE') AND JSONExtractString(profile, 'platform') = 'ios' THEN 'grown_us_ios'
    WHEN JSONExtract(profile, 'custom_attributes', 'reminders', 'Nullable(Bool)') IS NOT TRUE
     AND (JSONExtract(profile, 'custom_attributes', 'weekly_hours', 'Nullable(Float64)') BETWEEN 3 AND 20) IS NOT TRUE THEN 'quiet'
    ELSE 'everyone'
  END AS audience,
  count() AS profiles
FROM bench_json
GROUP BY 1
