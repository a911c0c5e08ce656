/* SPDX-License-Identifier: GPL-2.0 */
/* Receive: IP-in-IP to one of our aliases with our ID inside. */
#ifndef _DARD_RECEIVE_H
#define _DARD_RECEIVE_H

int dard_receive_init(void);
void dard_receive_uninit(void);

#endif /* _DARD_RECEIVE_H */
