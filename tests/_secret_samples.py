"""Fake but well-formed secrets of every format the cassette scan knows, one per format.

Each is assembled from pieces so that no complete token sits in the source; none is a
real credential (several are the vendors' own documented examples).
"""

from __future__ import annotations

from typing import NamedTuple


class Sample(NamedTuple):
    """A secret inside recorded text: the id, the text, the secret alone and its format."""

    id: str
    text: str
    secret: str
    kind: str


def _sample(id: str, before: str, secret: str, after: str, kind: str) -> Sample:
    return Sample(id, f"{before}{secret}{after}", secret, kind)


_B64 = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

SAMPLES: tuple[Sample, ...] = (
    _sample(
        "openai", "key ", "sk-proj-" + "a1B2c3D4" * 4, " here", "an OpenAI-style API key (sk-...)"
    ),
    _sample(
        "anthropic",
        "key ",
        "sk-ant-api03-" + "aB3dE6" * 10,
        "",
        "an Anthropic API key (sk-ant-...)",
    ),
    _sample(
        "aws_key_id", "id ", "AKIA" + "IOSFODNN7EXAMPLE", " ok", "an AWS access key id (AKIA...)"
    ),
    _sample(
        "aws_secret",
        "aws_secret_access_key = ",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
        "\n",
        "an AWS secret access key",
    ),
    *(
        _sample(
            f"github_{prefix}",
            "token ",
            f"{prefix}_" + "aB3" * 12,
            "",
            "a GitHub token (ghp_/gho_/ghu_/ghs_/ghr_/github_pat_...)",
        )
        for prefix in ("ghp", "gho", "ghu", "ghs", "ghr")
    ),
    _sample(
        "github_pat",
        "token ",
        "github_" + "pat_" + "11AB" * 6 + "_" + "cd12" * 15,
        "",
        "a GitHub token (ghp_/gho_/ghu_/ghs_/ghr_/github_pat_...)",
    ),
    _sample(
        "gitlab", "token ", "glpat-" + "aB3dE6gH9jK2mN5pQ8sT", "", "a GitLab token (glpat-...)"
    ),
    _sample(
        "slack_token",
        "bot ",
        "xoxb-" + "1234567890-1234567890123-" + "aBcDeFgHiJkLmNoPqRsTuVwX",
        "",
        "a Slack token (xox?-...)",
    ),
    _sample(
        "slack_webhook",
        "post to ",
        "https://hooks.slack.com/services/" + "T00000000/B00000000/" + "X" * 24,
        "",
        "a Slack webhook URL (hooks.slack.com/...)",
    ),
    _sample(
        "google",
        "key=",
        "AIza" + "Sy" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
        "",
        "a Google API key (AIza...)",
    ),
    _sample(
        "stripe_secret",
        "",
        "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc",
        "",
        "a Stripe live key (sk_live_/rk_live_...)",
    ),
    _sample(
        "stripe_restricted",
        "",
        "rk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc",
        "",
        "a Stripe live key (sk_live_/rk_live_...)",
    ),
    _sample(
        "azure_storage",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=",
        _B64,
        ";EndpointSuffix=core.windows.net",
        "an Azure storage account key (AccountKey=...)",
    ),
    _sample(
        "azure_shared_access",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=",
        "aB3dE6gH9jK2mN5pQ8sT" * 2 + "=",
        "",
        "an Azure shared access key (SharedAccessKey=...)",
    ),
    _sample(
        "azure_sas",
        "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sr=b&sig=",
        "aB3dE6gH9jK2mN5pQ8sT%2Bv1w2x3y4%3D",
        "",
        "an Azure SAS signature (sig=...)",
    ),
    _sample(
        "azure_client_secret",
        "secret ",
        "abc8Q~" + "aB3dE6gH9jK2mN5pQ8sT.v1w2x3y4z5A",
        " end",
        "an Azure AD client secret (...Q~...)",
    ),
    _sample(
        "azure_subscription_key",
        "Ocp-Apim-Subscription-Key: ",
        "0123456789abcdef" * 2,
        "",
        "an Azure subscription key (Ocp-Apim-Subscription-Key)",
    ),
    _sample(
        "jwt",
        "token ",
        "eyJhbGciOiJIUzI1NiJ9"
        + "."
        + "eyJzdWIiOiIxMjM0NTY3ODkwIn0"
        + "."
        + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "",
        "a JSON Web Token (eyJ...)",
    ),
    *(
        _sample(
            f"pem_{label}",
            "",
            f"-----BEGIN {header}PRIVATE KEY-----",
            "\nMIIEpAIBAAKCAQEA\n-----END PRIVATE KEY-----",
            "a PEM private key (-----BEGIN ... PRIVATE KEY-----)",
        )
        for label, header in (
            ("rsa", "RSA "),
            ("pkcs8", ""),
            ("openssh", "OPENSSH "),
            ("ec", "EC "),
        )
    ),
    _sample(
        "authorization_header",
        "Authorization: Basic ",
        "dXNlcjpwYXNzd29yZA==",
        "",
        "an Authorization header value",
    ),
    _sample("bearer", "Authorization: Bearer ", "abcdef0123456789", "", "a bearer token"),
    _sample(
        "api_key_header",
        "api-key: ",
        "0123456789abcdef0123456789abcdef",
        "",
        "an api-key header value",
    ),
    _sample(
        "huggingface",
        "",
        "hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH",
        "",
        "a Hugging Face token (hf_...)",
    ),
    _sample("npm", "", "npm_" + "aB3dE6gH9j" * 3 + "aB3dE6", "", "an npm token (npm_...)"),
    _sample(
        "pypi",
        "",
        "pypi-" + "AgEIcHlwaS5vcmc" + "CJDQ5YjU0ZjA3LTdlZjEtNDk2Zi1iNmQ1LTU4ZjQ5M2M1YjZmNgACKlsz",
        "",
        "a PyPI API token (pypi-...)",
    ),
    _sample(
        "url_credentials",
        "see https://user:",
        "hunter22",
        "@example.com/v1",
        "a URL with credentials",
    ),
)
