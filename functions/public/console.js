var v,Oe,gt,U,ue,ee,Le,Y,je,pe,de,vt,q=Symbol.for("pv"),te={},ne=[],bt=/^m(i|n|o|s|text|space)$/,me=Array.isArray,fe=ne.slice,B=Object.assign;function F(e){e&&e.parentNode&&e.remove()}function Ne(e,t,n){var r,i,o,s={},a=arguments.length;for(o in t)o=="key"?r=t[o]:o=="ref"&&typeof e!="function"?i=t[o]:s[o]=t[o];return a>2&&(s.children=a>3?fe.call(arguments,2):n),J(e,s,r,i,null)}function J(e,t,n,r,i){var o={type:e,props:t,key:n,ref:r,__k:null,__:null,__b:0,__e:null,__c:null,constructor:q,__v:i||++Oe,__i:-1,__u:0};return!i&&v.vnode&&v.vnode(o),o}function oe(e){return e.children}function Q(e,t){this.props=e,this.context=t,this.__g=0}function A(e,t){if(t==null)return e.__&&A(e.__,e.__i+1);for(var n;t<e.__k.length;t++)if((n=e.__k[t])&&n.__e)return n.__e;return typeof e.type!="function"||e.props.__P?null:A(e)}function $t(e){var t,n=e.__v,r=n.__e,i=[],o=[],s=e.__P;s&&((t=B({constructor:q},n)).__v=n.__v+1,v.vnode&&v.vnode(t),he(s,t,n,e.__n,s.namespaceURI,32&n.__u?[r]:null,i,r||A(n),32&n.__u,o),t.__v=n.__v,t.__.__k[t.__i]=t,Ie(i,t,o),n.__=n.__e=null,t.__e!=r&&Re(t))}function Re(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Re(e)}function Pe(e){(8&e.__g||(e.__g|=8,U.push(e),ee++))&&ue==v.debounceRendering||((ue=v.debounceRendering)||queueMicrotask)(De)}function De(){try{for(var e,t=1;U.length;)U.length>t&&U.sort(Le),e=U.shift(),t=U.length,8&e.__g&&$t(e)}finally{(ee=U.length)&&(ue||queueMicrotask)(De)}}function Ue(e,t,n,r,i,o,s,a,u,p,l){var m,c,_,f,S,g,b=r.__k||ne,h=t.length;for(u=yt(n,t,b,u,h),m=0;m<h;m++)(_=n.__k[m])!=null&&(c=~_.__i&&b[_.__i]||te,_.__i=m,g=he(e,_,c,i,o,s,a,u,p,l),f=_.__e,(c.ref!=_.ref||8&c.__u)&&(c.ref&&ge(c.ref,null,_,c),_.ref&&l.push(_.ref,_.__c||f,_)),S=S||f,4&_.__u?(u=Ae(_,u,e,!c.__v),c.__e&&(c.__e=null)):typeof _.type=="function"&&g!==void 0?u=g:f&&(u=f.nextSibling),_.__u&=-21);return n.__e=S,u}function yt(e,t,n,r,i){var o,s,a,u,p,l,m,c,_,f=n.length,S=f,g=0,b=0,h=e.__k=Array(i);for(o=0;o<i;o++)(s=t[o])!=null&&typeof s!="boolean"&&typeof s!="function"?(typeof s!="object"||s.constructor===String?s=h[o]=J(null,s):me(s)?s=h[o]=J(oe,{children:s}):s.constructor===q&&s.__b?s=h[o]=J(s.type,s.props,s.key,s.ref,s.__v):h[o]=s,u=o+g,s.__=e,s.__b=e.__b+1,a=null,~(p=s.__i=wt(s,n,u,S))&&(S--,(a=n[p])&&(a.__u|=2)),a&&a.__v?(s.__u|=16,p==u-1?g--:p==u+1?g++:p!=u&&(p>u?g--:g++,b=1)):(~p||(i>f?g--:i<f&&g++),typeof s.type!="function"&&(s.__u|=4))):h[o]=null;if(b){for(l=[],m=[],o=0;o<i;o++)if((s=h[o])&&16&s.__u){for(g=0,c=l.length;g<c;)l[_=g+c>>1]<s.__i?g=_+1:c=_;l[g]=s.__i,m[o]=g+1}for(g=l.length;o--;)m[o]&&(m[o]==g?g--:h[o].__u|=4)}if(S)for(o=0;o<f;o++)!(a=n[o])||2&a.__u||(a.__e==r&&(r=A(a)),ve(a,a));return r}function Ae(e,t,n,r){var i,o,s,a;if(typeof e.type=="function"){if(e.props.__P)return t;if(i=e.__k)for(o=0;o<i.length;o++)i[o]&&(i[o].__=e,t=Ae(i[o],t,n,!1));return t}for(t&&!t.parentNode&&(t=A(e))&&!t.parentNode&&(t=null),s=e.__e,a=t;a&&a.nodeType==8;)a=a.nextSibling;for(s!=a&&(!r&&n.moveBefore&&s.parentNode?n.moveBefore(s,t):n.insertBefore(s,t||null)),t=s;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith("$s"););return t}function wt(e,t,n,r){var i,o=e.key,s=e.type,a=t[n],u=a&&!(2&a.__u);if(a===null&&o==null||u&&o==a.key&&s==a.type)return n;if(r>(u?1:0)){for(i=n-1;i>=0;i--)if((a=t[i])&&!(2&a.__u)&&o==a.key&&s==a.type)return i;for(i=n+1;i<t.length;i++)if((a=t[i])&&!(2&a.__u)&&o==a.key&&s==a.type)return i}return-1}function Me(e,t,n){n==null&&(n=""),t[0]=="-"?e.setProperty(t,n):e[t]=n}function X(e,t,n,r,i){var o,s;if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof r=="string"&&(e.style.cssText=r=""),r)for(t in r)n&&t in n||Me(e.style,t);if(n)for(t in n)r&&n[t]==r[t]||Me(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")typeof n!="function"&&(n=null),typeof r!="function"&&(r=null),(e.__e||(e.__e={}))[t]=n,n&&r||(s=de[t]||(de[t]=kt(t)),(e.__a||(e.__a={}))[t]=pe,o=t!=(t=t.replace(je,"$1")),(t=t.slice(2))[0]<"a"&&(t=t.toLowerCase()),n?e.addEventListener(t,s,o):e.removeEventListener(t,s,o));else{if(i=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{return void(e[t]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n)}}function kt(e){return function(t){var n=this.__e;if(n){if(n=n[e],t[Y]==null)t[Y]=pe++;else if(t[Y]<this.__a[e])return;return n(v.event?v.event(t):t)}}}function he(e,t,n,r,i,o,s,a,u,p){var l,m,c,_,f,S,g,b,h,x,y,ce,Ce,G,I,Ee,D,W,R=t.type;if(t.constructor!==q)return null;128&n.__u&&(u=32&n.__u,l=n.__c.__z)&&(t.__u|=u,m=o=[],l.nodeType==8?a=Z(l,o):o.push(l),a=o[0]||a),(l=v.__b)&&l(t);e:if(typeof R=="function"){c=s.length;try{if(b=t.props,h=(l=R.prototype)&&l.render,x=(l=R.contextType)&&r[l.__c],y=l?x?x.props.value:l.__:r,(_=n.__c)?(t.__c=_,2&_.__g&&(_.__g|=1)):(h?t.__c=_=new R(b,y):(t.__c=_=new Q(b,y),_.constructor=R,_.render=xt),x&&x.sub(_),_.state||(_.state={}),_.__n=r,_.__g|=8,_.__h=[],_.__k=[]),h&&(_.__s||(_.__s=_.state),R.getDerivedStateFromProps&&(_.__s==_.state&&(_.__s=B({},_.__s)),B(_.__s,R.getDerivedStateFromProps(b,_.__s)))),f=_.props,S=_.state,_.__v=t,n.__c){if(b!==f&&h&&!R.getDerivedStateFromProps&&_.componentWillReceiveProps&&_.componentWillReceiveProps(b,y),t.__v==n.__v&&!(8&_.__g)||!(4&_.__g)&&_.shouldComponentUpdate&&_.shouldComponentUpdate(b,_.__s,y)===!1){t.__v!=n.__v&&(_.props=b,_.state=_.__s,_.__g&=-9),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(O){O&&(O.__=t)}),ne.push.apply(_.__h,_.__k),_.__k=[],_.__h.length&&s.push(_),a=A(n);break e}_.componentWillUpdate&&_.componentWillUpdate(b,_.__s,y),h&&_.componentDidUpdate&&_.__h.push(function(){_.componentDidUpdate(f,S,g)})}else h&&!R.getDerivedStateFromProps&&_.componentWillMount&&_.componentWillMount(),h&&_.componentDidMount&&_.__h.push(_.componentDidMount);_.context=y,_.props=b,_.__P=e,_.__g&=-5,ce=v.__r,Ce=h?25:0;do _.__g&=-9,ce&&ce(t),l=_.render(_.props,_.state=_.__s,_.context);while(8&_.__g&&++Ce<25);h&&(ne.push.apply(_.__h,_.__k),_.__k=[]),_.state=_.__s,_.getChildContext&&(r=B({},r,_.getChildContext())),h&&n.__c&&_.getSnapshotBeforeUpdate&&(g=_.getSnapshotBeforeUpdate(f,S)),G=l&&l.type===oe&&l.key==null?l.props.children:l,b.__P&&(l=a,i=(e=b.__P).namespaceURI,u=o=null,n.props&&n.props.__P!=e&&(n.__k.some(function(O){O&&ve(O,O)}),n.__k=null),a=n.__k?A(n,0):null),a=Ue(e,me(G)?G:[G],t,n,r,i,o,s,a,u,p),b.__P&&(t.__e=null,a=l),t.__u&=-161,m&&m.some(F),_.__h.length&&s.push(_),1&_.__g&&(_.__g&=-4)}catch(O){if(s.length=c,t.__v=null,u||o)if(O&&O.then){if(t.__u|=128|u,o){for(~(D=o.indexOf(a||void 0))||(D=o.length);(W=o[D-1])&&W.nodeType==8;)D--;for(;D<o.length;D++)if(W=o[D])if(o[D]=null,I){if(W==Ee)break}else{if(W.nodeType!=8)break;W.data.startsWith("$s")&&(Ee=Z(I=W))}}if(!I){for(;a&&a.nodeType==8&&a.nextSibling;)a=a.nextSibling;I=a}(l=Z(I=t.__c.__z||(t.__c.__z=I)))?(t.__e=I,a=l):t.__e=a,a=a&&a.nextSibling}else o&&o.some(F);else t.__e=n.__e;t.__k||(t.__k=n.__k||[]),O&&O.then||He(t),v.__e(O,t,n)}}else a=t.__e=St(n.__e,t,n,r,i,o,s,u,p,e);return(l=v.diffed)&&l(t),a}function Z(e,t){if(e&&e.nodeType==8&&e.data.startsWith("$s"))for(var n=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith("$s"))n++;else if(e.data.startsWith("/$s")&&!--n)return e}t&&t.push(e)}}function He(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(He))}function Ie(e,t,n){for(var r=0;r<n.length;)ge(n[r++],n[r++],n[r++]);v.__c&&v.__c(t,e),e.some(function(i){try{e=i.__h,i.__h=[],e.some(function(o){o.call(i)})}catch(o){v.__e(o,i.__v)}})}function St(e,t,n,r,i,o,s,a,u,p){var l,m,c,_,f,S,g,b,h=n.props||te,x=t.props,y=t.type;if(y=="svg"?i="http://www.w3.org/2000/svg":y=="math"?i="http://www.w3.org/1998/Math/MathML":i||(i="http://www.w3.org/1999/xhtml"),o){for(l=0;l<o.length;l++)if((f=o[l])&&(y?f.localName==y:f.nodeType==3)){e=f,o[l]=null;break}}if(!e){if(b=p.ownerDocument||document,!y)return b.createTextNode(x);e=b.createElementNS(i,y,x.is?x:p),a&&(v.__m&&v.__m(t,o),a=!1),o=null}if(y){if(p=y=="template"&&e.content||e,o=y=="textarea"&&x.defaultValue!=null?null:o&&fe.call(p.childNodes),!a&&o)for(h={},l=0;l<e.attributes.length;l++)h[(f=e.attributes[l]).name]=f.value;for(l in h)f=h[l],l=="dangerouslySetInnerHTML"?c=f:l=="children"||l in x||l=="value"&&"defaultValue"in x||l=="checked"&&"defaultChecked"in x||X(e,l,null,f,i);for(l in x)f=x[l],l=="children"?_=f:l=="dangerouslySetInnerHTML"?m=f:l=="value"?S=f:l=="checked"?g=f:a&&typeof f!="function"||h[l]===f||X(e,l,f,h[l],i);m?(a||c&&(m.__html==c.__html||m.__html==e.innerHTML)||(e.innerHTML=m.__html),t.__k=[]):(c&&(e.textContent=""),(y=="foreignObject"||i=="http://www.w3.org/1998/Math/MathML"&&bt.test(y))&&(i="http://www.w3.org/1999/xhtml"),Ue(p,me(_)?_:[_],t,n,r,i,o,s,o?o[0]:n.__k&&A(n,0),a,u),o&&o.some(F)),a&&y!="textarea"||(l="value",y=="progress"&&S==null?e.removeAttribute(l):S==null||S===e[l]&&(y!="progress"||S)||X(e,l,S,h[l],i),l="checked",g!=null&&g!=e[l]&&X(e,l,g,h[l],i))}else h===x||a&&e.data==x||(e.data=x);return e}function ge(e,t,n,r){try{typeof e=="function"?t?t.__x=e(t)||1:r&&(r=r.__c||r.__e)&&(t=r.__x)&&(r.__x=null,typeof t=="function"?t():e(null)):e.current=t}catch(i){v.__e(i,n)}}function ve(e,t,n){var r,i,o,s;if(v.unmount&&v.unmount(e),!(r=e.ref)||r.current&&r.current!=e.__e||ge(r,null,t,e),r=e.__c){if(r.componentWillUnmount)try{r.componentWillUnmount()}catch(a){v.__e(a,t)}r.__P=r.__n=null}if(r=e.__k)for(s=0;s<r.length;s++)r[s]&&ve(r[s],t,typeof e.type!="function"||n&&!e.props.__P);!n&&(r=e.__c)&&(r=r.__z)&&(i=Z(r,o=[]))&&(r==e.__e&&o.some(F),F(i),F(r)),n||F(e.__e),e.__e=e.__c=e.__=null}function xt(e,t,n){return this.constructor(e,n)}function We(e,t){var n,r,i,o;v.__&&v.__(e,t),t.nodeType==9&&(t=t.documentElement),r=(n=e&&32&e.__u)?null:t.__k,t.__k=J(oe,{children:[e]}),i=[],o=[],he(t,t.__k,r||te,te,t.namespaceURI,r?null:t.firstChild?fe.call(t.childNodes):null,i,r?r.__e:t.firstChild,n,o),Ie(i,t.__k,o),t.__k.props.children=null}v={__e:function(e,t,n,r){for(var i,o,s;t=t.__;)if((i=t.__c)&&!(1&i.__g)){i.__g|=4;try{if((s=(o=i.constructor)&&o.getDerivedStateFromError)&&i.setState(o.getDerivedStateFromError(e)),i.componentDidCatch&&(i.componentDidCatch(e,r||{}),s=1),s&&8&i.__g)return void(i.__g|=2)}catch(a){e=a}}throw ee=0,e}},Oe=0,gt=function(e){return e!=null&&e.constructor===q},Q.prototype.setState=function(e,t){var n=this.__s;n&&n!=this.state||(n=this.__s=B({},this.state)),typeof e=="function"&&(e=e(B({},n),this.props)),e&&(B(n,e),this.__v&&(t&&this.__k.push(t),Pe(this)))},Q.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),Pe(this))},Q.prototype.render=oe,U=[],ee=0,Le=function(e,t){return e.__v.__b-t.__v.__b},Y=Symbol(),je=/(PointerCapture)$|Capture$/i,pe=0,de={},vt=0;var V,k,be,Fe,$e=Object.is,re=0,Ye=[],ye=[],w=v,Be=w.__b,Je=w.__r,qe=w.diffed,Ke=w.__c,Ve=w.unmount,ze=w.__;function ke(e,t){w.__h&&w.__h(k,e,re||t),re=0;var n=k.__H||(k.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function $(e){return re=1,Tt(et,e)}function Tt(e,t,n){var r=ke(V++,2);if(r.t=e,!r.__c&&(r.__=[n?n(t):et(void 0,t),function(o){var s=(r.__N||r.__)[0],a=r.t(s,o);$e(s,a)||(r.__N=[a,r.__[1]],r.__c.setState({}))}],r.__c=k,!k.__f)){k.__f=!0;var i=k.shouldComponentUpdate;k.shouldComponentUpdate=function(o,s,a){var u=this.__H;if(!u)return!0;var p=!1,l=this.props!=o;if(u.__.some(function(c){c.__N&&(p=!0,$e(c.__[0],c.__N[0])||(l=!0))}),i){var m=i.call(this,o,s,a);return p?m||l:m}return!p||l}}return r.__}function se(e,t){var n=ke(V++,3);!w.__s&&Ze(n.__H,t)&&(n.__P=!0,n.__=e,n.u=t,k.__H.__h.push(n))}function Ct(e,t){var n=ke(V++,7);return Ze(n.__H,t)&&(n.__=e(),n.__H=t),n.__}function Qe(e,t){return re=8,Ct(function(){return e},t)}function Et(){var e;do{for(;e=ye.shift();)try{K(e)}catch(n){w.__e(n,{__:(e=e.__P)&&e.__v})}for(;e=Ye.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(K),t.__h.some(we),t.__h=[]}catch(n){t.__h=[],w.__e(n,e.__v)}}}while(ye.length)}w.__b=function(e){k=null,Be&&Be(e)},w.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),ze&&ze(e,t)},w.__r=function(e){Je&&Je(e),V=0;var t=(k=e.__c).__H;t&&(be==k?k.__h=[]:(t.__h.some(K),t.__h.some(we),V=0),t.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),be=k},w.diffed=function(e){qe&&qe(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&Xe(Ye.push(t)),t.__H.__.some(function(n){n.u&&(n.__H=n.u)})),be=k=null},w.__c=function(e,t){t.some(function(n){try{n.__h.some(K),n.__h=n.__h.filter(function(r){return!r.__||we(r)})}catch(r){n.__h=[function(){throw r}]}}),Ke&&Ke(e,t)},w.unmount=function(e){Ve&&Ve(e);var t,n,r=e.__c;r&&r.__H&&(r.__H.__.some(function(i){try{if(i.__P&&i.__c){if(n===void 0){for(n=e.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}i.__P=n,Xe(ye.push(i))}else K(i)}catch(o){t=o}}),r.__H=void 0,t&&w.__e(t,r.__v))};var Ge=typeof requestAnimationFrame=="function";function Pt(e){var t,n=function(){clearTimeout(r),Ge&&cancelAnimationFrame(t),setTimeout(e)},r=setTimeout(n,35);Ge&&(t=requestAnimationFrame(n))}function Xe(e){e!=1&&Fe==w.requestAnimationFrame||((Fe=w.requestAnimationFrame)||Pt)(Et)}function K(e){var t=k,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),k=t}function we(e){var t=k;e.__c=e.__(),k=t}function Ze(e,t){return!e||e.length!=t.length||t.some(function(n,r){return!$e(n,e[r])})}function et(e,t){return typeof t=="function"?t(e):t}var Se="console.apiKey",tt=new URL(".",location.href).href.replace(/\/$/,""),_e=()=>sessionStorage.getItem(Se)??"",le=e=>e?sessionStorage.setItem(Se,e):sessionStorage.removeItem(Se),z=class extends Error{constructor(n,r,i){super(r);this.status=n;this.code=i}status;code};async function nt(e){let t=await e.json().catch(()=>{});return new z(e.status,t?.error?.message??`${e.status} ${e.statusText}`,t?.error?.code??"http_error")}async function ot(e,t,n,r){let i={authorization:`Bearer ${_e()}`,accept:r};n!==void 0&&(i["content-type"]="application/json"),e==="POST"&&(i["idempotency-key"]=crypto.randomUUID());let o=await fetch(tt+t,{method:e,headers:i,body:n===void 0?void 0:JSON.stringify(n)});if(!o.ok)throw await nt(o);return o}async function L(e,t,n){let r=await ot(e,t,n,"application/json");if(r.status!==204)return r.json()}var T=e=>L("GET",e);async function xe(e,t,n){let r=await(await ot("GET",e,void 0,n)).text(),i=URL.createObjectURL(new Blob([r],{type:n}));Object.assign(document.createElement("a"),{href:i,download:t}).click(),setTimeout(()=>URL.revokeObjectURL(i),1e3)}var Mt=4,ie=0,ae=[];function Ot(e){return ie<Mt?(ie+=1,Promise.resolve()):new Promise((t,n)=>{let r=()=>{e.removeEventListener("abort",i),ie+=1,t()},i=()=>{ae.splice(ae.indexOf(r),1),n(e.reason)};ae.push(r),e.addEventListener("abort",i,{once:!0})})}function Lt(){ie-=1,ae.shift()?.()}async function rt(e,t,n){await Ot(n);try{await jt(e,t,n)}finally{Lt()}}async function jt(e,t,n){let r=await fetch(tt+e,{headers:{authorization:`Bearer ${_e()}`,accept:"text/event-stream"},signal:n});if(!r.ok||!r.body)throw await nt(r);let i=r.body.pipeThrough(new TextDecoderStream).getReader(),o="";for(;;){let{value:s,done:a}=await i.read();if(a)return;o+=s.replace(/\r\n/g,`
`);for(let u=o.indexOf(`

`);u>=0;u=o.indexOf(`

`)){let p=o.slice(0,u);o=o.slice(u+2);let l="message",m=[];for(let c of p.split(`
`))c.startsWith("event:")?l=c.slice(6).trim():c.startsWith("data:")&&m.push(c.slice(5).trimStart());m.length&&t(l,JSON.parse(m.join(`
`)))}}}var it=function(e,t,n,r){var i;t[0]=0;for(var o=1;o<t.length;o++){var s=t[o++],a=t[o]?(t[0]|=s?1:2,n[t[o++]]):t[++o];s===3?r[0]=a:s===4?r[1]=Object.assign(r[1]||{},a):s===5?(r[1]=r[1]||{})[t[++o]]=a:s===6?r[1][t[++o]]+=a+"":s?(i=e.apply(a,it(e,a,n,["",null])),r.push(i),a[0]?t[0]|=2:(t[o-2]=0,t[o]=i)):r.push(a)}return r},st=new Map;function at(e){var t=st.get(this);return t||(t=new Map,st.set(this,t)),(t=it(this,t.get(e)||(t.set(e,t=(function(n){for(var r,i,o=1,s="",a="",u=[0],p=function(c){o===1&&(c||(s=s.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,c,s):o===3&&(c||s)?(u.push(3,c,s),o=2):o===2&&s==="..."&&c?u.push(4,c,0):o===2&&s&&!c?u.push(5,0,!0,s):o>=5&&((s||!c&&o===5)&&(u.push(o,0,s,i),o=6),c&&(u.push(o,c,0,i),o=6)),s=""},l=0;l<n.length;l++){l&&(o===1&&p(),p(l));for(var m=0;m<n[l].length;m++)r=n[l][m],o===1?r==="<"?(p(),u=[u],o=3):s+=r:o===4?s==="--"&&r===">"?(o=1,s=""):s=r+s[0]:a?r===a?a="":s+=r:r==='"'||r==="'"?a=r:r===">"?(p(),o=1):o&&(r==="="?(o=5,i=s,s=""):r==="/"&&(o<5||n[l][m+1]===">")?(p(),o===3&&(u=u[0]),o=u,(u=u[0]).push(2,0,o),o=0):r===" "||r==="	"||r===`
`||r==="\r"?(p(),o=2):s+=r),o===3&&s==="!--"&&(o=4,u=u[0])}return p(),u})(e)),t),arguments,[])).length>1?t:t[0]}var d=at.bind(Ne);function C(e,t=[]){let[n,r]=$({loading:!0}),[i,o]=$(0);return se(()=>{let s=!0;return r(a=>({...a,loading:!0})),e().then(a=>s&&r({data:a,loading:!1}),a=>s&&r({error:P(a),loading:!1})),()=>{s=!1}},[...t,i]),{...n,reload:Qe(()=>o(s=>s+1),[])}}var P=e=>e instanceof z?`${e.message} (${e.code})`:e instanceof Error?e.message:String(e),j=({error:e})=>e?d`<p class="error" role="alert">${e}</p>`:null;function M({loaded:e,empty:t,children:n}){return e.error?d`<${j} error=${e.error} />`:e.loading&&e.data===void 0?d`<p class="muted">Loading…</p>`:t?d`<p class="empty">${t}</p>`:n}var N=e=>e?new Date(e).toLocaleString():"\u2014",E=e=>e==null?"\u2014":e.toLocaleString();var _t=new Set(["completed","failed","cancelled"]),Nt=2e3;function Rt({job:e,onChange:t}){let[n,r]=$(e),[i,o]=$(),[s,a]=$(0);se(()=>{if(_t.has(e.status))return;let l=new AbortController,m=!1,c;return rt(`/bd/jobs/${e.job_id}/events`,(_,f)=>{r(f),_==="complete"&&(m=!0,t())},l.signal).then(()=>{!m&&!l.signal.aborted&&(c=setTimeout(()=>a(_=>_+1),Nt))},_=>l.signal.aborted||o(P(_))),()=>{l.abort(),clearTimeout(c)}},[e.job_id,e.status,s]);let u=l=>l().then(t,m=>o(P(m))),p=!_t.has(n.status);return d`
    <li class="job" data-status=${n.status}>
      <div class="row spread">
        <strong>${e.preset}</strong>
        <span class="badge ${n.status}">${n.status}</span>
      </div>
      <progress max="100" value=${n.progress_percent} aria-label=${`Job ${e.job_id} progress`}>${n.progress_percent}%</progress>
      <div class="row spread small"><span class="pct">${n.progress_percent} %</span><span>${n.progress_message}</span></div>
      <div class="small muted">${N(e.created_at)} · ${e.origin} · reserved ${E(e.credits_reserved)}, charged ${E(e.credits_charged)} · <code>${e.job_id}</code></div>
      ${e.error_message&&d`<p class="error">${e.error_message}</p>`}
      ${Object.keys(e.stats.rows_by_source).length>0&&d`<div class="small sources">Rows by source: ${Object.entries(e.stats.rows_by_source).map(([l,m])=>`${l} ${E(m)}`).join(", ")}</div>`}
      ${e.warnings.length>0&&d`<ul class="small warnings">${e.warnings.map(l=>d`<li>${l}</li>`)}</ul>`}
      <div class="row">
        ${p&&d`<button onClick=${()=>u(()=>L("POST",`/bd/jobs/${e.job_id}/cancel`))}>Cancel</button>`}
        ${n.status==="completed"&&d`
          <button onClick=${()=>u(()=>xe(`/bd/jobs/${e.job_id}/export?format=csv`,`job-${e.job_id}.csv`,"text/csv"))}>Export CSV</button>
          <button onClick=${()=>u(()=>xe(`/bd/jobs/${e.job_id}/export?format=json`,`job-${e.job_id}.json`,"application/json"))}>Export JSON</button>`}
      </div>
      <${j} error=${i} />
    </li>`}var Dt=e=>({preset:"full_pipeline",input_assets:{companies:Array.from({length:e},(t,n)=>({company_name:`Demo Company ${n+1}`,domain:`demo-company-${n+1}.io`}))}});function lt(){let e=C(()=>T("/bd/jobs?limit=20")),[t,n]=$(),[r,i]=$(20);return d`
    <section aria-labelledby="jobs-h">
      <h2 id="jobs-h">Enrichment jobs</h2>
      <form class="row" onSubmit=${s=>{s.preventDefault(),n(void 0),L("POST","/bd/jobs",Dt(r)).then(e.reload,a=>n(P(a)))}}>
        <label>Sample companies <input type="number" min="1" max="500" value=${r} onInput=${s=>i(Number(s.currentTarget.value))} /></label>
        <button type="submit">Start a sample job</button>
        <button type="button" onClick=${e.reload}>Refresh</button>
      </form>
      <${j} error=${t} />
      <${M} loaded=${e} empty=${e.data?.items.length===0&&"No jobs yet. Start a sample job above, or POST /bd/jobs with your own companies; it shows here with its progress."}>
        <ul class="list">${e.data?.items.map(s=>d`<${Rt} key=${s.job_id+s.status} job=${s} onChange=${e.reload} />`)}</ul>
      <//>
    </section>`}var H="/integrations/moderation";function Ut({community:e}){let t=C(()=>T(`${H}/status?community_id=${e.id}&include_logs=50`),[e.id]),n=C(()=>T(`${H}/communities/${e.id}/rules`),[e.id]),[r,i]=$(),[o,s]=$(new Set),a=c=>u(()=>L("POST",`${H}/communities/${e.id}/examples`,{examples:[{text:c.message_excerpt,label:"ham"}]}),()=>s(new Set([...o,c.id]))),u=(c,_)=>{i(void 0),c().then(_,f=>i(P(f)))},p=t.data,l=[...p?.audit_logs??[]].sort((c,_)=>_.at.localeCompare(c.at)),m=n.data?.mode;return d`
    <article class="panel" aria-label=${e.name??e.id}>
      <div class="row spread"><h3>${e.name??e.id}</h3><span class="muted">${e.platform??""}</span></div>
      <${j} error=${r} />
      <${M} loaded=${t}>${p&&d`
        <dl class="cards">
          <div><dt>Status</dt><dd>${p.status} (${p.connection_state})</dd></div>
          <div><dt>Messages scanned</dt><dd>${E(p.metrics.messages_scanned)}</dd></div>
          <div><dt>Flagged</dt><dd>${E(p.metrics.messages_flagged)} (${(p.metrics.spam_rate*100).toFixed(1)}%)</dd></div>
          <div><dt>Rules</dt><dd>${m??"\u2026"}
            ${m&&d` <button onClick=${()=>u(()=>L("PUT",`${H}/communities/${e.id}/rules`,{mode:m==="enforce"?"observe":"enforce"}),n.reload)}>
              Switch to ${m==="enforce"?"observe":"enforce"}</button>`}</dd></div>
        </dl>
        <h4>Audit log, newest first</h4>
        ${l.length===0?d`<p class="empty">No actions yet. Moderated messages appear here once events arrive (POST ${H}/communities/{id}/events, or the platform's bot).</p>`:d`
          <ul class="list">${l.map(c=>d`<li>
            <div class="row spread"><strong>${c.action}${c.delivery?` (${c.delivery.status})`:""} · ${c.username}</strong><span class="small muted">${N(c.at)}</span></div>
            <div class="small">${c.rule}: ${c.reason}${c.score===null?"":` \xB7 score ${Math.round(c.score*100)}%`}</div>
            ${c.signals.length>1&&d`<div class="small muted">Signals: ${c.signals.map(_=>_.label).join("; ")}</div>`}
            ${c.message_excerpt&&d`<blockquote class="small">${c.message_excerpt}</blockquote>`}
            ${c.undo?d`<div class="small">Undone ${N(c.undo.at)} (${c.undo.status})</div>`:(c.action==="mute"||c.action==="ban")&&d`<button onClick=${()=>u(()=>L("POST",`${H}/communities/${e.id}/audit-logs/${c.id}/undo`),t.reload)} aria-label=${`Undo ${c.action} of ${c.username}`}>Undo</button>`}
            ${(c.action==="delete"||c.action==="warn")&&c.message_excerpt&&(o.has(c.id)?d`<div class="small">Marked not spam: the community learned it</div>`:d`<button onClick=${()=>a(c)} aria-label=${`Not spam: ${c.action} of ${c.username}`}>Not spam</button>`)}
          </li>`)}</ul>`}
      `}<//>
    </article>`}function ct(){let e=C(()=>T(`${H}/communities?limit=20`));return d`
    <section aria-labelledby="mod-h">
      <h2 id="mod-h">Moderation</h2>
      <${M} loaded=${e} empty=${e.data?.items.length===0&&`No communities yet. Create one with POST ${H}/communities; its status and audit log show here.`}>
        ${e.data?.items.map(t=>d`<${Ut} key=${t.id} community=${t} />`)}
      <//>
    </section>`}function ut({title:e,path:t,canDelete:n,empty:r}){let i=C(()=>T(`${t}?limit=20`)),[o,s]=$(),[a,u]=$(),p=l=>u(P(l));return d`
    <section aria-label=${e}>
      <h2>${e}</h2>
      <${j} error=${a} />
      <${M} loaded=${i} empty=${i.data?.items.length===0&&r}>
        <ul class="list">${i.data?.items.map(l=>d`<li class="row spread">
          <span>${l.title??l.tool_name??l.id} <span class="small muted">${N(l.created_at)}</span></span>
          <span class="row">
            <button onClick=${()=>T(`${t}/${l.id}`).then(m=>s({id:l.id,body:m}),p)}>Open</button>
            ${n&&d`<button onClick=${()=>confirm("Delete it?")&&L("DELETE",`${t}/${l.id}`).then(i.reload,p)}>Delete</button>`}
          </span></li>`)}</ul>
      <//>
      ${o&&d`<div class="panel"><div class="row spread"><strong>${o.id}</strong><button onClick=${()=>s(void 0)}>Close</button></div>
        <pre tabindex="0">${JSON.stringify(o.body,null,2)}</pre></div>`}
    </section>`}var dt=()=>d`
  <${ut} title="Stored results" path="/results" canDelete=${!1} empty="No stored results yet. Tool calls and finished jobs store their results here." />
  <${ut} title="Chats" path="/chats" canDelete=${!0} empty="No chats yet. Create one with POST /chats and pass its chat_id when you start a job." />`;function pt({days:e}){let o=Math.max(1,...e.map(p=>p.credits)),s=600/Math.max(1,e.length),a=Math.max(1,s*.75),u=e.reduce((p,l)=>p+l.credits,0);return d`
    <figure class="chart">
      <svg viewBox="0 0 ${600} ${160}" role="img" aria-label=${`Credits used per day: ${u} over ${e.length} days, at most ${o} in a day`}>
        <line x1="0" x2=${600} y1=${159} y2=${159} class="axis" />
        ${e.map((p,l)=>{let m=155*p.credits/o;return d`<rect class="bar" x=${l*s+(s-a)/2} y=${159-m} width=${a} height=${m}><title>${p.date}: ${p.credits} credits</title></rect>`})}
      </svg>
      ${e.length?d`<figcaption class="row spread small muted"><span>${e[0].date}</span><span>highest ${o} a day</span><span>${e[e.length-1].date}</span></figcaption>`:null}
    </figure>`}function mt(){let[e,t]=$(),n=C(()=>Promise.all([T("/users/me"),T("/subscriptions/status")])),r=C(()=>T(e?`/credits/usage?start_date=${e.start}&end_date=${e.end}`:"/credits/usage"),[e?.start,e?.end]),i=u=>{u.preventDefault();let p=new FormData(u.currentTarget);t({start:String(p.get("start")),end:String(p.get("end"))})},[o,s]=n.data??[],a=r.data;return d`
    <section aria-labelledby="balance-h">
      <h2 id="balance-h">Balance</h2>
      <${M} loaded=${n}>
        ${o&&s&&d`<dl class="cards">
          <div><dt>Credits available</dt><dd class="big" data-testid="balance">${E(s.credits_total)}</dd></div>
          <div><dt>Of which never expire</dt><dd>${E(o.permanent_credit_balance)}</dd></div>
          <div><dt>Plan</dt><dd>${s.tier} (${s.status})</dd></div>
          <div><dt>Monthly credits expire</dt><dd>${N(s.credits_expiring)}</dd></div>
        </dl>`}
      <//>
    </section>
    <section aria-labelledby="usage-h">
      <h2 id="usage-h">Usage</h2>
      <form class="row" onSubmit=${i}>
        <label>From <input type="date" name="start" value=${e?.start??r.data?.start_date} required /></label>
        <label>To <input type="date" name="end" value=${e?.end??r.data?.end_date} required /></label>
        <button type="submit">Show</button>
      </form>
      <${M} loaded=${r}>
        ${a&&d`
          <dl class="cards">
            <div><dt>Used</dt><dd class="big">${E(a.total_used)}</dd></div>
            <div><dt>Allowance</dt><dd>${a.allowance===null?"none":`${E(a.allowance)} (${a.percentage_used}% used)`}</dd></div>
            <div><dt>Per day</dt><dd>${a.average_daily}</dd></div>
            <div><dt>Projected this period</dt><dd>${E(a.projected)}</dd></div>
          </dl>
          <h3>By day</h3>
          ${a.total_used===0?d`<p class="empty">No credits used from ${a.start_date} to ${a.end_date}. Start a job on the Jobs tab, or widen the dates.</p>`:d`<${pt} days=${a.by_day} />`}
          <h3>By tool</h3>
          ${a.by_tool.length===0?d`<p class="empty">Nothing charged in this range yet.</p>`:d`
            <table><thead><tr><th scope="col">Tool</th><th scope="col" class="n">Credits</th></tr></thead>
              <tbody>${a.by_tool.map(u=>d`<tr><td>${u.tool_name}</td><td class="n">${E(u.credits)}</td></tr>`)}</tbody></table>`}
        `}
      <//>
    </section>`}var At=({endpoint:e})=>d`
  <li>
    <div class="row spread"><code>${e.url}</code><span class="badge ${e.status}">${e.status}</span></div>
    <div class="small muted">${e.event_types.join(", ")} · ${e.id}</div>
    ${e.disabled_reason&&d`<p class="small error">${e.disabled_reason}. It receives nothing more; register the URL again to resume.</p>`}
  </li>`;function ft(){let e=C(()=>T("/webhooks/endpoints")),t=C(()=>T("/webhooks/deliveries?limit=50")),[n,r]=$(),i=o=>{r(void 0),L("POST",`/webhooks/deliveries/${o}/retry`).then(t.reload,s=>r(P(s)))};return d`
    <section aria-labelledby="ep-h">
      <h2 id="ep-h">Webhook endpoints</h2>
      <${M} loaded=${e} empty=${e.data?.items.length===0&&"No endpoints yet. POST /webhooks/endpoints with a url and event_types (job.completed, credits.low, \u2026) to be called when they happen."}>
        <ul class="list">${e.data?.items.map(o=>d`<${At} key=${o.id} endpoint=${o} />`)}</ul>
      <//>
    </section>
    <section aria-labelledby="del-h">
      <h2 id="del-h">Recent deliveries</h2>
      <${j} error=${n} />
      <${M} loaded=${t} empty=${t.data?.items.length===0&&"No deliveries yet. They are listed here, with their answers, once an event is sent to one of your endpoints."}>
        <div class="scroll"><table>
          <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th><th scope="col">Retry</th></tr></thead>
          <tbody>${t.data?.items.map(o=>d`<tr>
            <td>${N(o.created_at)}</td><td>${o.event_type}</td><td>${o.status}</td><td class="n">${o.attempts}</td>
            <td>${o.last_status_code??o.last_error??"\u2014"}</td>
            <td><button onClick=${()=>i(o.id)} aria-label=${`Retry delivery ${o.id}`}>Retry</button></td></tr>`)}</tbody>
        </table></div>
      <//>
    </section>`}var Te=[{id:"usage",label:"Credits",view:mt},{id:"jobs",label:"Jobs",view:lt},{id:"moderation",label:"Moderation",view:ct},{id:"storage",label:"Results & chats",view:dt},{id:"webhooks",label:"Webhooks",view:ft}];function Ht({onKey:e}){let[t,n]=$();return d`
    <form class="panel key" onSubmit=${i=>{i.preventDefault();let o=String(new FormData(i.currentTarget).get("key")??"").trim();le(o),T("/users/me").then(e,s=>{le(""),n(P(s))})}}>
      <h2>Your API key</h2>
      <p>Paste the key <code>npm start</code> printed (or your own). It stays in this tab only and is sent in the Authorization header.</p>
      <label for="key">API key</label>
      <input id="key" name="key" type="password" autocomplete="off" required />
      <button type="submit">Open the console</button>
      <${j} error=${t} />
    </form>`}function It(){let[e,t]=$(!!_e()),[n,r]=$(location.hash.slice(1)||"usage"),i=Te.find(s=>s.id===n)??Te[0],o=s=>{r(s),history.replaceState(null,"",`#${s}`)};return d`
    <header class="row spread">
      <h1>Console</h1>
      ${e&&d`<button onClick=${()=>{le(""),t(!1)}}>Forget key</button>`}
    </header>
    ${e?d`
      <nav aria-label="Screens"><ul class="tabs">${Te.map(s=>d`<li>
        <a href=${`#${s.id}`} aria-current=${s.id===i.id?"page":void 0} onClick=${a=>{a.preventDefault(),o(s.id)}}>${s.label}</a></li>`)}</ul></nav>
      <main><${i.view} key=${i.id} /></main>`:d`<main><${Ht} onKey=${()=>t(!0)} /></main>`}`}var ht=document.getElementById("app");if(!ht)throw new Error("The console page has no #app element");We(d`<${It} />`,ht);
