/* sim/results.c: a run's results as JSON, CSV and text (see sim/results.h). */
#include "sim/results.h"

#include <string.h>

void results_energy(sim_results *r, const sim_system *s)
{
    static const int read_of[ROLE_COUNT] = {EN_L1_READ, EN_L2_READ, EN_MEM_READ};
    static const int write_of[ROLE_COUNT] = {EN_L1_WRITE, EN_L2_WRITE, EN_MEM_WRITE};
    static const int link_of[LINK_COUNT] = {EN_LINK_LOCAL, EN_LINK_GPM, EN_LINK_GPU};
    memset(r->energy_pj, 0, sizeof r->energy_pj);
    r->energy_pj[EN_COMPUTE] = (double)r->compute_cycles * s->energy[EN_COMPUTE];
    for (int c = 0; c < r->nctrls; c++) {
        const sim_ctrl_stats *st = &r->ctrl[c];
        r->energy_pj[read_of[st->role]] += (double)st->reads * s->energy[read_of[st->role]];
        r->energy_pj[write_of[st->role]] += (double)st->writes * s->energy[write_of[st->role]];
        r->energy_pj[EN_DRAM] += (double)st->dram * s->energy[EN_DRAM];
    }
    for (int k = 0; k < LINK_COUNT; k++)
        r->energy_pj[link_of[k]] += (double)r->link_messages[k] * s->energy[link_of[k]];
}

static double total_energy(const sim_results *r)
{
    double e = 0;
    for (int k = 0; k < EN_COUNT; k++)
        e += r->energy_pj[k];
    return e;
}

/* A JSON string: the names we write are identifiers, but quote safely. */
static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static double per(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void json_ctrls(FILE *out, const sim_results *r)
{
    fputs(",\"controllers\":{", out);
    for (int c = 0; c < r->nctrls; c++) {
        const sim_ctrl_stats *st = &r->ctrl[c];
        if (c)
            fputc(',', out);
        json_str(out, st->name);
        fprintf(out,
                ":{\"role\":\"%s\",\"events\":%llu,\"reads\":%llu,\"writes\":%llu,\"hits\":%llu,\"misses\":%llu,"
                "\"hit_rate\":%.4f,\"evictions\":%llu,\"dram\":%llu,\"mem_hits\":%llu,\"mem_misses\":%llu,"
                "\"blocked\":%llu,\"utilisation\":%.4f,\"peak_utilisation\":%.4f}",
                sim_role_names[st->role], (unsigned long long)st->events, (unsigned long long)st->reads,
                (unsigned long long)st->writes, (unsigned long long)st->read_hits,
                (unsigned long long)st->read_misses, per(st->read_hits, st->read_hits + st->read_misses),
                (unsigned long long)st->evictions, (unsigned long long)st->dram, (unsigned long long)st->mem_hits,
                (unsigned long long)st->mem_misses, (unsigned long long)st->blocked, st->util, st->peak_util);
    }
    fputc('}', out);
}

static void json_traffic(FILE *out, const sim_results *r)
{
    fputs(",\"channels\":{", out);
    for (int c = 0; c < r->nchans; c++) {
        if (c)
            fputc(',', out);
        json_str(out, r->chan[c].name);
        fprintf(out, ":{\"messages\":%llu,\"bytes\":%llu}", (unsigned long long)r->chan[c].messages,
                (unsigned long long)r->chan[c].bytes);
    }
    fputs("},\"links\":{", out);
    for (int k = 0; k < LINK_COUNT; k++)
        fprintf(out, "%s\"%s\":{\"messages\":%llu,\"bytes\":%llu,\"utilisation\":%.4f,\"peak_utilisation\":%.4f}",
                k ? "," : "", sim_link_names[k], (unsigned long long)r->link_messages[k],
                (unsigned long long)r->link_bytes[k], r->link_util[k], r->link_peak_util[k]);
    fputs("},\"stalls\":{", out);
    for (int k = 0; k < STALL_COUNT; k++)
        fprintf(out, "%s\"%s\":%llu", k ? "," : "", sim_stall_names[k], (unsigned long long)r->stall[k]);
    fprintf(out, "},\"energy_pj\":{\"total\":%.1f", total_energy(r));
    for (int k = 0; k < EN_COUNT; k++)
        fprintf(out, ",\"%s\":%.1f", sim_energy_names[k], r->energy_pj[k]);
    fputc('}', out);
}

void results_json(FILE *out, const sim_results *r)
{
    fputs("{\"protocol\":", out);
    json_str(out, r->protocol);
    fputs(",\"tables_sha256\":", out);
    if (r->digest)
        json_str(out, r->digest);
    else
        fputs("null", out);
    fprintf(out, ",\"verified\":%s,\"ideal\":%s,\"system\":", r->verified ? "true" : "false",
            r->ideal ? "true" : "false");
    json_str(out, r->system);
    fputs(",\"workload\":", out);
    json_str(out, r->workload);
    fputs(",\"kind\":", out);
    json_str(out, r->kind);
    fprintf(out, ",\"seed\":%llu,\"complete\":%s", (unsigned long long)r->seed, r->complete ? "true" : "false");
    if (!r->complete) {
        fputs(",\"incomplete\":", out);
        json_str(out, r->incomplete ? r->incomplete : "error");
    }
    fprintf(out,
            ",\"cus\":%d,\"gpus\":%d,\"warps_per_cu\":%d,\"slots_per_warp\":%d,\"cycles\":%llu,\"ops\":%llu,"
            "\"ops_per_cycle\":%.4f,\"loads\":%llu,\"stores\":%llu,\"rmws\":%llu,\"fences\":%llu,"
            "\"compute_cycles\":%llu,\"events\":%llu,\"messages\":%llu,\"bytes\":%llu",
            r->ncu, r->ngpu, r->warps, r->slots, (unsigned long long)r->cycles, (unsigned long long)r->ops,
            per(r->ops, r->cycles), (unsigned long long)r->loads, (unsigned long long)r->stores,
            (unsigned long long)r->rmws, (unsigned long long)r->fences, (unsigned long long)r->compute_cycles,
            (unsigned long long)r->events, (unsigned long long)r->messages, (unsigned long long)r->bytes);
    fprintf(out, ",\"kernels\":%llu,\"kernels_total\":%llu,\"load_latency\":{\"loads\":%llu,\"average\":%.2f,"
                 "\"p50\":%llu,\"p99\":%llu,\"max\":%llu}",
            (unsigned long long)r->kernels, (unsigned long long)r->kernels_total, (unsigned long long)r->load_count,
            r->load_avg, (unsigned long long)r->load_p50, (unsigned long long)r->load_p99,
            (unsigned long long)r->load_max);
    json_ctrls(out, r);
    json_traffic(out, r);
    fputs(",\"assumptions\":[", out);
    for (int k = 0; k < r->nassumptions; k++) {
        if (k)
            fputc(',', out);
        json_str(out, r->assumptions[k]);
    }
    fprintf(out, "],\"sim_seconds\":%.3f,\"cpu_seconds\":%.3f,\"ops_per_second\":%.0f,\"messages_per_second\":%.0f,"
                 "\"peak_events\":%llu}\n",
            r->seconds, r->cpu_seconds, r->cpu_seconds > 0 ? (double)r->ops / r->cpu_seconds : 0.0,
            r->cpu_seconds > 0 ? (double)r->messages / r->cpu_seconds : 0.0, (unsigned long long)r->peak_events);
}

void results_csv_header(FILE *out, const sim_results *r)
{
    fputs("protocol,verified,ideal,system,workload,kind,seed,complete,cus,gpus,cycles,ops,ops_per_cycle,messages,"
          "bytes,energy_pj,kernels,load_latency_avg,load_latency_p50,load_latency_p99,load_latency_max", out);
    for (int c = 0; c < r->nctrls; c++) {
        const char *n = r->ctrl[c].name;
        fprintf(out, ",%s.hits,%s.misses,%s.evictions,%s.dram,%s.mem_hits,%s.mem_misses,%s.utilisation,"
                     "%s.peak_utilisation", n, n, n, n, n, n, n, n);
    }
    for (int c = 0; c < r->nchans; c++)
        fprintf(out, ",%s.messages,%s.bytes", r->chan[c].name, r->chan[c].name);
    for (int k = 0; k < LINK_COUNT; k++)
        fprintf(out, ",link_%s.messages,link_%s.bytes,link_%s.utilisation,link_%s.peak_utilisation",
                sim_link_names[k], sim_link_names[k], sim_link_names[k], sim_link_names[k]);
    for (int k = 0; k < STALL_COUNT; k++)
        fprintf(out, ",stall.%s", sim_stall_names[k]);
    fputc('\n', out);
}

void results_csv(FILE *out, const sim_results *r)
{
    fprintf(out, "%s,%d,%d,%s,%s,%s,%llu,%d,%d,%d,%llu,%llu,%.4f,%llu,%llu,%.1f", r->protocol, r->verified, r->ideal,
            r->system, r->workload, r->kind, (unsigned long long)r->seed, r->complete, r->ncu, r->ngpu,
            (unsigned long long)r->cycles, (unsigned long long)r->ops, per(r->ops, r->cycles),
            (unsigned long long)r->messages, (unsigned long long)r->bytes, total_energy(r));
    fprintf(out, ",%llu,%.2f,%llu,%llu,%llu", (unsigned long long)r->kernels, r->load_avg,
            (unsigned long long)r->load_p50, (unsigned long long)r->load_p99, (unsigned long long)r->load_max);
    for (int c = 0; c < r->nctrls; c++) {
        const sim_ctrl_stats *st = &r->ctrl[c];
        fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%llu,%.4f,%.4f", (unsigned long long)st->read_hits,
                (unsigned long long)st->read_misses, (unsigned long long)st->evictions, (unsigned long long)st->dram,
                (unsigned long long)st->mem_hits, (unsigned long long)st->mem_misses, st->util, st->peak_util);
    }
    for (int c = 0; c < r->nchans; c++)
        fprintf(out, ",%llu,%llu", (unsigned long long)r->chan[c].messages, (unsigned long long)r->chan[c].bytes);
    for (int k = 0; k < LINK_COUNT; k++)
        fprintf(out, ",%llu,%llu,%.4f,%.4f", (unsigned long long)r->link_messages[k],
                (unsigned long long)r->link_bytes[k], r->link_util[k], r->link_peak_util[k]);
    for (int k = 0; k < STALL_COUNT; k++)
        fprintf(out, ",%llu", (unsigned long long)r->stall[k]);
    fputc('\n', out);
}

/* Links that carried messages, and stall cycles by cause, largest first. */
static void text_links_stalls(FILE *out, const sim_results *r)
{
    fputs("  links:", out);
    int n = 0;
    for (int k = 0; k < LINK_COUNT; k++)
        if (r->link_messages[k])
            fprintf(out, "%s %s %llu messages, busy %.1f%% (busiest %.1f%%)", n++ ? ";" : "", sim_link_names[k],
                    (unsigned long long)r->link_messages[k], 100 * r->link_util[k], 100 * r->link_peak_util[k]);
    fputs(n ? "\n  stalls:" : " none\n  stalls:", out);
    bool shown[STALL_COUNT] = {false};
    n = 0;
    for (;;) {
        int best = -1;
        for (int k = 0; k < STALL_COUNT; k++)
            if (!shown[k] && r->stall[k] && (best < 0 || r->stall[k] > r->stall[best]))
                best = k;
        if (best < 0)
            break;
        shown[best] = true;
        fprintf(out, "%s %s %llu", n++ ? "," : "", sim_stall_names[best], (unsigned long long)r->stall[best]);
    }
    fputs(n ? " (warp cycles)\n" : " none\n", out);
}

void results_text(FILE *out, const sim_results *r)
{
    fprintf(out, "Run %s on %s, workload %s (%s)%s%s\n", r->protocol, r->system, r->workload, r->kind,
            r->verified ? "" : " [UNVERIFIED]", r->ideal ? " [ideal: no coherence]" : "");
    fprintf(out, "cycles %llu, operations %llu (%.3f per cycle), messages %llu, bytes %llu, energy %.3g uJ%s",
            (unsigned long long)r->cycles, (unsigned long long)r->ops, per(r->ops, r->cycles),
            (unsigned long long)r->messages, (unsigned long long)r->bytes, total_energy(r) * 1e-6,
            r->complete ? "" : " (incomplete: ");
    if (!r->complete)
        fprintf(out, "%s)", r->incomplete ? r->incomplete : "error");
    fputc('\n', out);
    fprintf(out, "kernels %llu of %llu done; loads %llu, latency average %.1f, median %llu, 99th percentile %llu, "
                 "largest %llu cycles\n", (unsigned long long)r->kernels, (unsigned long long)r->kernels_total,
            (unsigned long long)r->load_count,
            r->load_avg, (unsigned long long)r->load_p50, (unsigned long long)r->load_p99,
            (unsigned long long)r->load_max);
    for (int c = 0; c < r->nctrls; c++) {
        const sim_ctrl_stats *st = &r->ctrl[c];
        fprintf(out, "  %-6s %-3s events %llu, read hits %llu, misses %llu, evictions %llu, dram %llu", st->name,
                sim_role_names[st->role], (unsigned long long)st->events, (unsigned long long)st->read_hits,
                (unsigned long long)st->read_misses, (unsigned long long)st->evictions, (unsigned long long)st->dram);
        if (st->mem_hits || st->mem_misses)
            fprintf(out, ", memory-side hits %llu, misses %llu", (unsigned long long)st->mem_hits,
                    (unsigned long long)st->mem_misses);
        fprintf(out, ", busy %.1f%% (busiest %.1f%%)\n", 100 * st->util, 100 * st->peak_util);
    }
    text_links_stalls(out, r);
    for (int k = 0; k < r->nassumptions; k++)
        fprintf(out, "  assumes: %s\n", r->assumptions[k]);
}
