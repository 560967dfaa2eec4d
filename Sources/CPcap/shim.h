#ifndef DRAIN_CPCAP_SHIM_H
#define DRAIN_CPCAP_SHIM_H
#include <pcap/pcap.h>
#endif
