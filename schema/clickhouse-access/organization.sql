-- Read-only access to Sightline's ClickHouse tables for one organization's analysts.
-- A template (Go text/template), rendered per organization by
-- `sightline admin analyst access --org ID` (schema.OrganizationAccess) and applied
-- to ClickHouse server by an administrator with access management. Rendering again
-- and re-applying is safe (OR REPLACE / IF NOT EXISTS) and is needed whenever the
-- organization gains a project: the rollups carry project_id, not organization_id.
--
-- What it creates, all named {{.Role}}:
--   a role holding SELECT on the analysts' tables and nothing else;
--   a settings profile: readonly = 2 (reads only; settings may be changed within
--   the constraints below, as BI tools need), no DDL, no introspection, and bounds on
--   time, memory, rows read and result size;
--   a quota per user and hour and per user and day;
--   one row policy per table confining SELECT to the organization's rows.

CREATE ROLE IF NOT EXISTS {{.Role}};

CREATE SETTINGS PROFILE OR REPLACE {{.Role}} SETTINGS
    readonly = 2 CONST,
    allow_ddl = 0 CONST,
    allow_introspection_functions = 0 CONST,
    max_execution_time = 60 MAX 300,
    max_memory_usage = 4000000000 MAX 8000000000,
    max_rows_to_read = 5000000000 MAX 20000000000,
    max_result_rows = 1000000 MAX 10000000,
    max_threads = 4 MAX 8,
    max_concurrent_queries_for_user = 4 CONST
TO {{.Role}};

CREATE QUOTA OR REPLACE {{.Role}}
    KEYED BY user_name
    FOR INTERVAL 1 hour MAX queries = 600, errors = 120, result_rows = 100000000, read_rows = 100000000000, execution_time = 3600,
    FOR INTERVAL 1 day MAX queries = 5000, read_rows = 1000000000000, execution_time = 28800
TO {{.Role}};
{{range .Tables}}
GRANT SELECT ON {{$.Database}}.{{.Name}} TO {{$.Role}};

CREATE ROW POLICY OR REPLACE {{$.Role}} ON {{$.Database}}.{{.Name}} FOR SELECT USING {{.Predicate}} TO {{$.Role}};
{{end}}
