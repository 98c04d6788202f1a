/* Status codes, diagnostics, severities, formats and option defaults. */
#include <strings.h>

#include "base/util.h"

const char *sg_version(void)
{
    return SNIPGATE_VERSION;
}

const char *sg_strerror(sg_status status)
{
    switch (status) {
    case SG_OK: return "ok";
    case SG_ERR_NOMEM: return "out of memory";
    case SG_ERR_INVALID_ARG: return "invalid argument";
    case SG_ERR_IO: return "input/output error";
    case SG_ERR_TOO_LARGE: return "input too large";
    case SG_ERR_BINARY: return "binary input (NUL byte)";
    case SG_ERR_ENCODING: return "input is not valid UTF-8";
    case SG_ERR_EMPTY: return "empty input";
    case SG_ERR_RULES: return "malformed rule pack";
    case SG_ERR_UNKNOWN_RULE: return "unknown rule id";
    case SG_ERR_INTERNAL: return "internal error";
    case SG_ERR_SANDBOX: return "sandbox setup failed";
    case SG_ERR_UNSUPPORTED: return "required kernel feature unavailable";
    case SG_ERR_INTERRUPTED: return "interrupted";
    case SG_ERR_POLICY: return "malformed policy file";
    }
    return "unknown status";
}

void sg_diag_init(sg_diag *diag)
{
    if (!diag)
        return;
    memset(diag, 0, sizeof *diag);
    diag->offset = -1;
}

const char *sg_severity_name(sg_severity sev)
{
    static const char *const names[] = {"low", "medium", "high", "critical"};
    return (unsigned)sev < 4 ? names[sev] : "unknown";
}

sg_status sg_severity_parse(const char *name, sg_severity *ret_sev)
{
    static const char *const names[] = {"low", "medium", "high", "critical"};
    if (!name || !ret_sev)
        return SG_ERR_INVALID_ARG;
    for (int i = 0; i < 4; i++)
        if (!strcasecmp(name, names[i])) {
            *ret_sev = (sg_severity)i;
            return SG_OK;
        }
    return SG_ERR_INVALID_ARG;
}

sg_status sg_format_parse(const char *name, sg_format *ret_format)
{
    if (!name || !ret_format)
        return SG_ERR_INVALID_ARG;
    if (!strcasecmp(name, "text"))
        *ret_format = SG_FORMAT_TEXT;
    else if (!strcasecmp(name, "json"))
        *ret_format = SG_FORMAT_JSON;
    else if (!strcasecmp(name, "sarif"))
        *ret_format = SG_FORMAT_SARIF;
    else if (!strcasecmp(name, "gitlab"))
        *ret_format = SG_FORMAT_GITLAB;
    else
        return SG_ERR_INVALID_ARG;
    return SG_OK;
}

void sg_options_init(sg_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->max_bytes = 8u << 20;
    opts->max_depth = 400;
    opts->fail_on = SG_SEV_MEDIUM;
    opts->input_kind = SG_INPUT_AUTO;
    opts->parse_steps = 64000000;
    opts->parse_timeout_ms = 60000;
}
