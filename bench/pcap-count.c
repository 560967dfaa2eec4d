/*
 * pcap-count: the raw libpcap baseline of the capture benchmark. It reads a capture the way
 * Drain's importer does (offline, nanosecond precision, pcap_next_ex) and does nothing but
 * count packets and bytes, so its time is the floor any analyser built on libpcap pays.
 *
 *   cc -O2 bench/pcap-count.c -lpcap -o pcap-count
 *   pcap-count FILE        prints: packets=N captured_bytes=N wire_bytes=N
 *
 * Exit status: 0 at the end of the file, 1 on a read error (the counts up to the error are
 * still printed, with the error on stderr), 2 on bad usage or a file libpcap cannot open.
 */
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: pcap-count FILE\n");
        return 2;
    }
    char error[PCAP_ERRBUF_SIZE];
    pcap_t *capture = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, error);
    if (!capture) {
        fprintf(stderr, "pcap-count: %s: %s\n", argv[1], error);
        return 2;
    }
    uint64_t packets = 0, captured = 0, wire = 0;
    struct pcap_pkthdr *header;
    const u_char *data;
    int status;
    while ((status = pcap_next_ex(capture, &header, &data)) == 1) {
        packets++;
        captured += header->caplen;
        wire += header->len;
    }
    printf("packets=%llu captured_bytes=%llu wire_bytes=%llu\n", (unsigned long long)packets,
           (unsigned long long)captured, (unsigned long long)wire);
    int failed = status == PCAP_ERROR;
    if (failed) fprintf(stderr, "pcap-count: %s: %s\n", argv[1], pcap_geterr(capture));
    pcap_close(capture);
    return failed;
}
