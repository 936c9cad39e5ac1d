/* Classic-style IDA* + Manhattan for the 15-puzzle (blank-last goal), the C baseline of
 * BENCHMARKS.md: byte-array board, incremental Manhattan table, operator table, parent
 * pruning, Korf move order. Build: gcc -O3 -march=native -o ida benches/c-baseline/ida.c
 * Run: ./ida 38abfe7951024c6d */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static int board[16], blank, md[16][16], thresh, nexth; static long long gen;
static int ops[16][5]; // neighbor cells, -1 term
static int path[200];
static int dfs(int g, int h, int prev){
  if(h==0) return 1;
  for(int k=0;ops[blank][k]>=0;k++){
    int nb=ops[blank][k]; if(nb==prev) continue;
    gen++;
    int t=board[nb]; int h2=h-md[t][nb]+md[t][blank];
    if(g+1+h2>thresh){ if(g+1+h2<nexth) nexth=g+1+h2; continue;}
    int ob=blank; board[ob]=t; board[nb]=0; blank=nb;
    if(dfs(g+1,h2,ob)) return 1;
    blank=ob; board[nb]=t; board[ob]=0;
  }
  return 0;
}
int main(int argc,char**argv){
  const char*s=argv[1];
  for(int i=0;i<16;i++){char c=s[i]; board[i]= c<='9'?c-'0':c-'a'+10; if(!board[i]) blank=i;}
  for(int t=1;t<16;t++) for(int c=0;c<16;c++){int g=t-1; md[t][c]=abs(g/4-c/4)+abs(g%4-c%4);}
  for(int c=0;c<16;c++){int k=0,r=c/4,q=c%4; if(r>0)ops[c][k++]=c-4; if(q>0)ops[c][k++]=c-1; if(q<3)ops[c][k++]=c+1; if(r<3)ops[c][k++]=c+4; ops[c][k]=-1;}
  int h=0; for(int c=0;c<16;c++) if(board[c]) h+=md[board[c]][c];
  clock_t st=clock(); thresh=h;
  for(;;){nexth=1000; if(dfs(0,h,-1))break; thresh=nexth;}
  double sec=(double)(clock()-st)/CLOCKS_PER_SEC;
  printf("len %d gen %lld %.3f s %.1f M/s\n",thresh,gen,sec,gen/sec/1e6);
}
