/** Names an attacker tries first (at least 40): the sensitive-subdomains check probes each. */
export const SENSITIVE_NAMES: ReadonlyArray<string> = [
  "admin", "administrator", "vpn", "remote", "kibana", "jenkins", "grafana", "prometheus", "elastic", "elasticsearch",
  "gitlab", "git", "jira", "confluence", "phpmyadmin", "mysql", "db", "database", "redis", "mongo",
  "staging", "stage", "dev", "test", "uat", "qa", "internal", "intranet", "corp", "backup",
  "ftp", "sftp", "ssh", "rdp", "citrix", "owa", "exchange", "webmail", "cpanel", "whm",
  "portal", "dashboard", "monitor", "nagios", "zabbix", "vault", "consul", "k8s", "kubernetes", "api-internal",
  "debug", "old", "legacy", "sonarqube", "argocd", "rancher", "traefik", "mail-admin", "secure", "login"
]
