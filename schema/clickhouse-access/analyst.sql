-- One analyst of an organization: a user with the organization's role (see
-- organization.sql), its settings profile and the database as default. The
-- password is given as its SHA-256 (hex), never in plain text. Rendered by
-- `sightline admin analyst access --org ID --user NAME --password-sha256 HEX`.

CREATE USER IF NOT EXISTS {{.User}}
    IDENTIFIED WITH sha256_hash BY '{{.PasswordSHA256}}'
    DEFAULT ROLE {{.Role}}
    DEFAULT DATABASE {{.Database}}
    SETTINGS PROFILE {{.Role}};

GRANT {{.Role}} TO {{.User}};
