#ifndef DRAIN_C_RECORD_SUPPORT_H
#define DRAIN_C_RECORD_SUPPORT_H

/// Makes the calling process the child subreaper of its descendants (Linux
/// PR_SET_CHILD_SUBREAPER): orphans are re-parented to it instead of to init.
/// prctl(2) is variadic, which Swift cannot call directly. Returns 0, or -1 with errno set.
int drain_record_become_subreaper(void);

#endif
