/**
 * Cloud platforms, storage, CDNs and application hosts (sources and vocabulary: dsl.ts).
 * Azure's services are separate entries: each has its own names and any of them can be
 * recreated under the same name once deleted (NXDOMAIN means free).
 */
import { body, CIAT, type Fingerprint, NUCLEI, nx, REAPER, SUBJACK } from "./dsl"

const AZURE_SOURCES = [CIAT, REAPER, SUBJACK] as const

export const CLOUD: ReadonlyArray<Fingerprint> = [
  body(
    "AWS S3",
    [".s3.amazonaws.com", ".s3-*.amazonaws.com", ".s3.*.amazonaws.com", ".s3-website-*.amazonaws.com", ".s3-website.*.amazonaws.com"],
    ["The specified bucket does not exist", "NoSuchBucket"],
    "vulnerable",
    [CIAT, NUCLEI, SUBJACK],
    { code: 404 }
  ),
  nx("AWS Elastic Beanstalk", [".elasticbeanstalk.com"], "vulnerable", [CIAT, REAPER, SUBJACK]),
  nx("AWS Elastic Load Balancing", [".elb.amazonaws.com"], "not_vulnerable", [CIAT]),
  body("AWS CloudFront", [".cloudfront.net"], ["ViewerCertificateException"], "not_vulnerable", [CIAT]),
  nx("Microsoft Azure App Service", [".azurewebsites.net"], "vulnerable", AZURE_SOURCES),
  nx("Microsoft Azure Cloud Services", [".cloudapp.net"], "vulnerable", AZURE_SOURCES),
  nx("Microsoft Azure Virtual Machines", [".cloudapp.azure.com"], "vulnerable", AZURE_SOURCES),
  nx("Microsoft Azure Traffic Manager", [".trafficmanager.net"], "vulnerable", [REAPER, SUBJACK]),
  nx("Microsoft Azure Blob Storage", [".blob.core.windows.net"], "vulnerable", AZURE_SOURCES),
  nx("Microsoft Azure CDN", [".azureedge.net"], "vulnerable", AZURE_SOURCES),
  nx("Microsoft Azure API Management", [".azure-api.net"], "vulnerable", AZURE_SOURCES),
  nx("Microsoft Azure HDInsight", [".azurehdinsight.net"], "vulnerable", AZURE_SOURCES),
  nx("Microsoft Azure Container Instances", [".azurecontainer.io"], "vulnerable", [CIAT, REAPER]),
  nx("Microsoft Azure SQL Database", [".database.windows.net"], "vulnerable", [CIAT, REAPER]),
  nx("Microsoft Azure Data Lake Storage", [".azuredatalakestore.net"], "vulnerable", [CIAT, REAPER]),
  nx("Microsoft Azure Cognitive Search", [".search.windows.net"], "vulnerable", [CIAT, REAPER]),
  nx("Microsoft Azure Container Registry", [".azurecr.io"], "vulnerable", [CIAT, REAPER]),
  nx("Microsoft Azure Cache for Redis", [".redis.cache.windows.net"], "vulnerable", [CIAT, REAPER]),
  nx("Microsoft Azure Service Bus", [".servicebus.windows.net"], "vulnerable", [CIAT, REAPER]),
  nx("Microsoft Azure DevOps (Visual Studio)", [".visualstudio.com"], "vulnerable", [CIAT]),
  body(
    "Google Cloud Storage",
    [".c.storage.googleapis.com"],
    ["<Code>NoSuchBucket</Code><Message>The specified bucket does not exist.</Message>"],
    "not_vulnerable",
    [CIAT]
  ),
  body("Google Sites", [".ghs.google.com", ".ghs.googlehosted.com"], ["The requested URL was not found on this server. That’s all we know."], "not_vulnerable", [CIAT]),
  body(
    "Heroku",
    [".herokuapp.com", ".herokudns.com", ".herokussl.com"],
    ["No such app", "herokucdn.com/error-pages/no-such-app.html"],
    "edge_case",
    [CIAT, NUCLEI]
  ),
  body("Fastly", [".fastly.net", ".fastlylb.net"], ["Fastly error: unknown domain"], "not_vulnerable", [CIAT]),
  body("Fly.io", [".fly.dev"], ["404 Not Found"], "not_vulnerable", [CIAT]),
  body("Kinsta", [".kinsta.cloud"], ["No Site For Domain"], "not_vulnerable", [CIAT, NUCLEI]),
  body(
    "Pantheon",
    [".pantheonsite.io", ".pantheon.io"],
    ["404 error unknown site!", "The gods are wise, but do not know of the site which you seek."],
    "vulnerable",
    [CIAT, NUCLEI, SUBJACK]
  ),
  body("Acquia", [".acquia-sites.com"], ["Web Site Not Found"], "not_vulnerable", [CIAT]),
  body("Netlify", [".netlify.app", ".netlify.com"], ["Not Found - Request ID:"], "edge_case", [CIAT, REAPER]),
  body("Vercel", [".vercel.app", ".vercel-dns.com", ".now.sh"], ["The deployment could not be found on Vercel", "DEPLOYMENT_NOT_FOUND"], "edge_case", [
    CIAT,
    NUCLEI
  ]),
  body(
    "GitHub Pages",
    [".github.io"],
    ["There isn't a GitHub Pages site here.", "For root URLs (like http://example.com/) you must provide an index.html file", "<title>Site not found · GitHub Pages"],
    "edge_case",
    [CIAT, NUCLEI, SUBJACK, REAPER]
  ),
  body("Bitbucket", [".bitbucket.io"], ["Repository not found"], "vulnerable", [CIAT, SUBJACK]),
  body("Surge.sh", [".surge.sh"], ["project not found"], "vulnerable", [CIAT, SUBJACK, REAPER]),
  body("Wasabi", [".wasabisys.com"], ["The specified bucket does not exist"], "edge_case", [NUCLEI]),
  nx("Apigee", [".*-portal.apigee.net"], "edge_case", [SUBJACK]),
  body("Gemfury", [".furyns.com"], ["404: This page could not be found."], "vulnerable", [CIAT, SUBJACK]),
  body(
    "Ngrok",
    [".ngrok.io", ".ngrok.app"],
    ["ngrok.io not found", "ERR_NGROK_3200"],
    "vulnerable",
    [CIAT, SUBJACK, REAPER]
  ),
  body("Airee.ru", [".airee.ru"], ["Ошибка 402. Сервис Айри.рф не оплачен"], "vulnerable", [CIAT, REAPER])
]
