#include "CRecordSupport.h"

#ifdef __linux__
#include <sys/prctl.h>

int drain_record_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}
#else
#include <errno.h>

int drain_record_become_subreaper(void) {
    errno = ENOSYS;
    return -1;
}
#endif
