-- Once per server, before the first organization's row policies: the service's own
-- user keeps reading and writing every row. A table with a row policy shows a user
-- that no permissive policy covers no rows at all unless the server sets
-- access_control_improvements.users_without_row_policies_can_read_rows; this policy
-- makes the service independent of that setting.

CREATE ROW POLICY OR REPLACE sightline_service ON {{.Database}}.* FOR SELECT USING 1 TO {{.ServiceUser}};
